/** Axis and tooltip time labels: times of day for periods up to a day, day and hour beyond. */
export function formatChartTime(language: string, ms: number, spanHours: number): string {
  const options: Intl.DateTimeFormatOptions =
    spanHours <= 24 ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(language, options).format(new Date(ms));
}

export function formatChartTick(language: string, ms: number, spanHours: number): string {
  const options: Intl.DateTimeFormatOptions = spanHours <= 24 ? { hour: '2-digit', minute: '2-digit' } : { month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(language, options).format(new Date(ms));
}
