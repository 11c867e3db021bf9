import { describe, expect, it } from 'vitest';
import { CHART_MARGIN, layoutChart, peakLabelBaseline, tooltipPlacement } from './chart-geometry';
import { toBuckets } from './usage-series';

const buckets = [
  { start: 0, in: 100, out: 0 },
  { start: 1, in: 40, out: 60 },
  { start: 2, in: 0, out: 0 },
  { start: 3, in: 25, out: 25 },
];

describe('layoutChart', () => {
  const g = layoutChart(buckets, 400 + CHART_MARGIN.left + CHART_MARGIN.right, 200 + CHART_MARGIN.top + CHART_MARGIN.bottom);

  it('stacks out on top of in, scaled to the top tick', () => {
    expect(g.yTicks.map((t) => t.value)).toEqual([0, 50, 100]);
    const base = CHART_MARGIN.top + 200;
    expect(g.bars[0]).toMatchObject({ inHeight: 200, outHeight: 0, inY: base - 200 });
    expect(g.bars[1]?.inHeight).toBeCloseTo(80);
    expect(g.bars[1]?.outY).toBeCloseTo(base - 200);
    expect(g.bars[2]).toMatchObject({ inHeight: 0, outHeight: 0 });
  });

  it('maps a pointer position back to its bucket, clamped to the ends', () => {
    expect(g.indexAt(CHART_MARGIN.left + 10)).toBe(0);
    expect(g.indexAt(CHART_MARGIN.left + 150)).toBe(1);
    expect(g.indexAt(-50)).toBe(0);
    expect(g.indexAt(10_000)).toBe(3);
  });

  it('keeps a zero axis for an empty chart', () => {
    const empty = layoutChart([{ start: 0, in: 0, out: 0 }], 300, 150);
    expect(empty.yTicks).toEqual([{ value: 0, y: 150 - CHART_MARGIN.bottom }]);
    expect(empty.bars[0]?.inHeight).toBe(0);
  });
});

describe('the time axis of a 168 h chart', () => {
  const HOUR = 3_600_000;
  const end = Date.UTC(2026, 10, 24, 9, 13);
  const buckets = toBuckets([], end - 168 * HOUR, end, 7200);
  const bucketMs = (buckets[1]?.start ?? 0) - (buckets[0]?.start ?? 0);
  const axis = { spanHours: 168, bucketMs, minLabelSpacing: 56, timeZone: 'Europe/Warsaw' };

  it('has a labelled tick on each local day boundary, evenly spaced', () => {
    const g = layoutChart(buckets, 900, 220, axis);
    const days = g.xTicks.map((t) =>
      new Intl.DateTimeFormat('en', {
        timeZone: 'Europe/Warsaw',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        hourCycle: 'h23',
      }).format(t.time),
    );
    expect(days).toEqual(['Nov 18, 00', 'Nov 19, 00', 'Nov 20, 00', 'Nov 21, 00', 'Nov 22, 00', 'Nov 23, 00', 'Nov 24, 00']);
    expect(g.xTicks.every((t) => t.isLabelled)).toBe(true);
    const gaps = g.xTicks.slice(1).map((t, i) => t.x - (g.xTicks[i]?.x ?? 0));
    for (const gap of gaps) expect(gap).toBeCloseTo(gaps[0] ?? 0, 6);
  });

  it('places a tick where its time falls among the bars', () => {
    const g = layoutChart(buckets, 900, 220, axis);
    const first = g.xTicks[0];
    const index = Math.floor(((first?.time ?? 0) - (buckets[0]?.start ?? 0)) / bucketMs);
    const bar = g.bars[index];
    expect(first?.x).toBeGreaterThanOrEqual((bar?.x ?? 0) - 1);
    expect(first?.x).toBeLessThanOrEqual((bar?.x ?? 0) + (bar?.width ?? 0) + 1);
  });
});

describe('tooltipPlacement', () => {
  const series = Array.from({ length: 20 }, (_, i) => ({ start: i, in: i === 4 || i === 15 ? 100 : 10, out: 0 }));
  const width = 600;
  const g = layoutChart(series, width, 220);

  it.each([4, 15])('keeps the tooltip below the peak label when the peak bar (%i) is hovered', (peak) => {
    const place = tooltipPlacement(g, peak, peak, width);
    const peakBar = g.bars[peak];
    if (!peakBar) throw new Error('no bar');
    // The label's glyphs reach about 3 px below its baseline.
    expect(place.top).toBeGreaterThan(peakLabelBaseline(peakBar) + 3);
  });

  it('sits beside the hovered bar, never over it', () => {
    const left = tooltipPlacement(g, 2, 4, width);
    const bar2 = g.bars[2];
    expect(left.left).toBeGreaterThan((bar2?.x ?? 0) + (bar2?.width ?? 0));
    const right = tooltipPlacement(g, 17, 4, width);
    const bar17 = g.bars[17];
    expect(right.left).toBeUndefined();
    expect(width - (right.right ?? 0)).toBeLessThan(bar17?.x ?? 0);
  });
});
