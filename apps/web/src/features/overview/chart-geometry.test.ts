import { describe, expect, it } from 'vitest';
import { CHART_MARGIN, layoutChart } from './chart-geometry';

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
