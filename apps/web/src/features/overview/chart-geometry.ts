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
  xTicks: { index: number; x: number }[];
  /** Bucket index under a horizontal position (clamped), for pointer tracking. */
  indexAt: (x: number) => number;
}

/** Stacked bars (in + out per bucket) in a `width` × `height` box; pure so it can be tested without a DOM. */
export function layoutChart(buckets: readonly UsageBucket[], width: number, height: number, xTickCount = 5): ChartGeometry {
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
  const step = Math.max(1, Math.ceil(n / xTickCount));
  const xTicks: { index: number; x: number }[] = [];
  for (let i = 0; i < buckets.length; i += step) xTicks.push({ index: i, x: plot.left + i * slot + slot / 2 });
  const indexAt = (x: number) => Math.min(n - 1, Math.max(0, Math.floor((x - plot.left) / slot)));
  return { plot, bars, yTicks, xTicks, indexAt };
}
