import { type TimeTick, timeTicks } from './chart-ticks';
import { niceTicks, type UsageBucket } from './usage-series';

export const CHART_MARGIN = { top: 22, right: 12, bottom: 28, left: 64 } as const;

export interface BarGeometry {
  x: number;
  width: number;
  /** "In" sits at the bottom of the stack, "out" on top of it. */
  inY: number;
  inHeight: number;
  outY: number;
  outHeight: number;
  centerX: number;
}

export interface ChartGeometry {
  plot: { left: number; top: number; width: number; height: number };
  bars: BarGeometry[];
  yTicks: { value: number; y: number }[];
  /** Time ticks on the user's clock (chart-ticks.ts), placed on the time scale of the bars. */
  xTicks: (TimeTick & { x: number })[];
  /** Bucket index under a horizontal position (clamped), for pointer tracking. */
  indexAt: (x: number) => number;
}

export interface TimeAxis {
  /** The selected period: over 24 h the axis marks days, else hours or minutes. */
  spanHours: number;
  /** Width of one bucket, ms (the time scale of the bars). */
  bucketMs: number;
  /** Distance labels need between their centres, px. */
  minLabelSpacing: number;
  timeZone?: string | undefined;
}

/** Stacked bars (in + out per bucket) in a `width` × `height` box; pure so it can be tested without a DOM. */
export function layoutChart(buckets: readonly UsageBucket[], width: number, height: number, axis?: TimeAxis): ChartGeometry {
  const m = CHART_MARGIN;
  const plot = { left: m.left, top: m.top, width: Math.max(width - m.left - m.right, 1), height: Math.max(height - m.top - m.bottom, 1) };
  const max = buckets.reduce((acc, b) => Math.max(acc, b.in + b.out), 0);
  const ticks = niceTicks(max);
  const top = ticks.at(-1) || 1;
  const scaleY = (v: number) => (v / top) * plot.height;
  const n = Math.max(buckets.length, 1);
  const slot = plot.width / n;
  const barWidth = Math.max(slot * 0.7, 1);
  const bars = buckets.map((b, i) => {
    const x = plot.left + i * slot + (slot - barWidth) / 2;
    const inHeight = scaleY(b.in);
    const outHeight = scaleY(b.out);
    const base = plot.top + plot.height;
    return { x, width: barWidth, inY: base - inHeight, inHeight, outY: base - inHeight - outHeight, outHeight, centerX: x + barWidth / 2 };
  });
  const yTicks = ticks.map((value) => ({ value, y: plot.top + plot.height - scaleY(value) }));
  const start = buckets[0]?.start ?? 0;
  const pxPerMs = axis ? slot / axis.bucketMs : 0;
  const xTicks = axis
    ? timeTicks(start, start + n * axis.bucketMs, {
        spanHours: axis.spanHours,
        pxPerMs,
        minSpacing: axis.minLabelSpacing,
        timeZone: axis.timeZone,
      }).map((tick) => ({ ...tick, x: plot.left + (tick.time - start) * pxPerMs }))
    : [];
  const indexAt = (x: number) => Math.min(n - 1, Math.max(0, Math.floor((x - plot.left) / slot)));
  return { plot, bars, yTicks, xTicks, indexAt };
}

/** Baseline of the peak label (ChartSvg draws it 8 px above the peak, kept inside the top margin). */
export const peakLabelBaseline = (peakBar: BarGeometry) => Math.max(peakBar.outY - 8, 10);

export interface TooltipPlacement {
  top: number;
  left?: number;
  right?: number;
}

/**
 * Where the hover tooltip goes: beside the hovered bar (to its right in the left half of the
 * chart, to its left otherwise) and below the peak label, so it hides neither.
 */
export function tooltipPlacement(
  geometry: ChartGeometry,
  activeIndex: number,
  peakIndex: number | undefined,
  width: number,
): TooltipPlacement {
  const bar = geometry.bars[activeIndex];
  const peakBar = peakIndex === undefined ? undefined : geometry.bars[peakIndex];
  const top = Math.max(geometry.plot.top, peakBar ? peakLabelBaseline(peakBar) + 8 : 0);
  if (!bar) return { top, left: geometry.plot.left };
  const gap = 6;
  return bar.centerX <= width / 2 ? { top, left: bar.x + bar.width + gap } : { top, right: width - bar.x + gap };
}
