/** Axis and tooltip time labels: times of day for periods up to a day, day and hour beyond. `timeZone` undefined = the browser's. */
export function formatChartTime(language: string, ms: number, spanHours: number, timeZone?: string): string {
  const options: Intl.DateTimeFormatOptions =
    spanHours <= 24 ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(language, { ...options, timeZone }).format(new Date(ms));
}

export function formatChartTick(language: string, ms: number, spanHours: number, timeZone?: string): string {
  const options: Intl.DateTimeFormatOptions = spanHours <= 24 ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(language, { ...options, timeZone }).format(new Date(ms));
}

/** A bucket width as a short duration in the language ("10 min", "3 hr", "1 day"), for "Peak per …". */
export function formatInterval(language: string, ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const [value, unit] =
    minutes % 1440 === 0
      ? [minutes / 1440, 'day']
      : minutes % 60 === 0
        ? [minutes / 60, 'hour']
        : minutes >= 1
          ? [minutes, 'minute']
          : [Math.round(ms / 1000), 'second'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
}
