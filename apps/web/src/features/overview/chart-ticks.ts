/**
 * Time-axis ticks that land on the user's own clock: local midnights for periods over a day
 * (every day gets a tick; when labels would collide, every k-th day is labelled), and round local
 * hours or minutes for shorter ones. Bucket boundaries are UTC-aligned, so ticks are found by
 * scanning instants and reading the local wall clock with Intl (any zone, DST and half-hour
 * offsets included; `timeZone` undefined = the browser's own).
 */
export interface TimeTick {
  time: number;
  isLabelled: boolean;
}

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
/** Tick steps for periods up to a day, in minutes. */
const STEPS = [5, 10, 15, 30, 60, 120, 180, 360, 720];

interface WallClock {
  day: string;
  minuteOfDay: number;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, timeZone: string | undefined): WallClock {
  const key = timeZone ?? '';
  let format = clocks.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    clocks.set(key, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** Every instant in [start, end] on a multiple of `granularity` minutes (UTC), with its local wall clock. */
function scan(startMs: number, endMs: number, granularity: number, timeZone: string | undefined) {
  const step = granularity * MINUTE;
  const out: { time: number; clock: WallClock }[] = [];
  for (let t = Math.ceil(startMs / step) * step; t <= endMs; t += step) out.push({ time: t, clock: wallClock(t, timeZone) });
  return out;
}

/** The first instant of each local day inside the window (midnight, or the first moment after a DST gap at midnight). */
export function dayBoundaries(startMs: number, endMs: number, timeZone?: string): number[] {
  const before = wallClock(Math.ceil(startMs / (15 * MINUTE)) * 15 * MINUTE - 15 * MINUTE, timeZone).day;
  let previous = before;
  const out: number[] = [];
  for (const { time, clock } of scan(startMs, endMs, 15, timeZone)) {
    if (clock.day !== previous) out.push(time);
    previous = clock.day;
  }
  return out;
}

interface TickOptions {
  spanHours: number;
  /** Pixels per millisecond of the axis. */
  pxPerMs: number;
  /** Distance (px) labels need between their centres so they do not collide. */
  minSpacing: number;
  timeZone?: string | undefined;
}

export function timeTicks(startMs: number, endMs: number, { spanHours, pxPerMs, minSpacing, timeZone }: TickOptions): TimeTick[] {
  if (!(endMs > startMs) || !(pxPerMs > 0)) return [];
  if (spanHours > 24) {
    const every = Math.max(1, Math.ceil(minSpacing / (DAY_MINUTES * MINUTE * pxPerMs)));
    const days = dayBoundaries(startMs, endMs, timeZone);
    // Label counting from the last day, so the most recent day always carries its date.
    return days.map((time, i) => ({ time, isLabelled: (days.length - 1 - i) % every === 0 }));
  }
  const step = STEPS.find((m) => m * MINUTE * pxPerMs >= minSpacing) ?? (STEPS.at(-1) as number);
  return scan(startMs, endMs, step <= 15 ? 5 : 15, timeZone)
    .filter(({ clock }) => clock.minuteOfDay % step === 0)
    .map(({ time }) => ({ time, isLabelled: true }));
}

/** A rough width of an axis label at 11 px: wide (CJK) characters count double. */
export function estimateLabelWidth(label: string): number {
  let width = 0;
  for (const ch of label) width += (ch.codePointAt(0) ?? 0) >= 0x2e80 ? 11 : 6.5;
  return width;
}
