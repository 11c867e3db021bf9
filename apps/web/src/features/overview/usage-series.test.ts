import { describe, expect, it } from 'vitest';
import { bucketWidth, findPeak, formatBytes, MAX_BUCKETS, niceTicks, sumUsage, toBuckets } from './usage-series';

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);
const at = (minutes: number, seconds = 0) => new Date(T0 + minutes * 60_000 + seconds * 1000).toISOString();

describe('toBuckets', () => {
  it('covers the whole period with zero buckets when there is no traffic', () => {
    const buckets = toBuckets([], T0, T0 + 3_600_000);
    expect(buckets.length).toBeGreaterThanOrEqual(60);
    expect(buckets.length).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(buckets.every((b) => b.in === 0 && b.out === 0)).toBe(true);
    expect(buckets[0]?.start).toBe(T0);
  });

  it('sums samples of the same bucket, download as in and upload as out', () => {
    const buckets = toBuckets(
      [
        { collected_at: at(5, 10), download: 100, upload: 10 },
        { collected_at: at(5, 40), download: 50, upload: 5 },
        { collected_at: at(7), download: 1, upload: 2 },
      ],
      T0,
      T0 + 3_600_000,
    );
    expect(buckets[5]).toEqual({ start: T0 + 5 * 60_000, in: 150, out: 15 });
    expect(buckets[7]).toMatchObject({ in: 1, out: 2 });
    expect(buckets[6]).toMatchObject({ in: 0, out: 0 });
  });

  it('ignores samples outside the window, unparsable dates and negative counters', () => {
    const buckets = toBuckets(
      [
        { collected_at: at(-5), download: 999, upload: 999 },
        { collected_at: at(120), download: 999, upload: 999 },
        { collected_at: 'not a date', download: 999, upload: 999 },
        { collected_at: at(1), download: -5, upload: 3 },
      ],
      T0,
      T0 + 3_600_000,
    );
    expect(sumBuckets(buckets)).toEqual({ in: 0, out: 3 });
  });

  it('uses wider buckets for longer periods and keeps the count bounded', () => {
    expect(bucketWidth(T0, T0 + 3_600_000)).toBe(60_000);
    expect(bucketWidth(T0, T0 + 24 * 3_600_000)).toBe(30 * 60_000);
    expect(toBuckets([], T0, T0 + 168 * 3_600_000).length).toBeLessThanOrEqual(MAX_BUCKETS);
  });

  it("keeps the server's bucket width while it gives at most 120 bars, else a multiple of it", () => {
    expect(bucketWidth(T0, T0 + 3_600_000, 30)).toBe(30_000);
    expect(bucketWidth(T0, T0 + 3_600_000, 10)).toBe(60_000);
    expect(bucketWidth(T0, T0 + 24 * 3_600_000, 420)).toBe(2_100_000);
  });
});

describe('findPeak', () => {
  it('is undefined when nothing flowed', () => {
    expect(findPeak(toBuckets([], T0, T0 + 3_600_000))).toBeUndefined();
  });

  it('picks the bucket with the highest in + out, the earliest on a tie', () => {
    const buckets = [
      { start: 0, in: 5, out: 5 },
      { start: 1, in: 1, out: 20 },
      { start: 2, in: 20, out: 1 },
      { start: 3, in: 0, out: 0 },
    ];
    expect(findPeak(buckets)).toEqual({ start: 1, in: 1, out: 20, index: 1, total: 21 });
  });
});

describe('sumUsage', () => {
  it('totals in and out', () => {
    expect(
      sumUsage([
        { collected_at: at(0), download: 10, upload: 1 },
        { collected_at: at(1), download: 20, upload: 2 },
      ]),
    ).toEqual({ in: 30, out: 3 });
  });
});

describe('niceTicks', () => {
  it('starts at zero and reaches the maximum with round steps', () => {
    expect(niceTicks(0)).toEqual([0]);
    expect(niceTicks(95)).toEqual([0, 50, 100]);
    expect(niceTicks(1_000)).toEqual([0, 500, 1000]);
    const ticks = niceTicks(3_456_789);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(3_456_789);
    expect(ticks.length).toBeLessThanOrEqual(6);
  });
});

describe('formatBytes', () => {
  it('uses decimal units and the language number format', () => {
    expect(formatBytes('en', 0)).toBe('0 B');
    expect(formatBytes('en', 999)).toBe('999 B');
    expect(formatBytes('en', 1_500)).toBe('1.5 kB');
    expect(formatBytes('pl', 1_500_000)).toBe('1,5 MB');
    expect(formatBytes('en', 250_000_000_000)).toBe('250 GB');
  });
});

function sumBuckets(buckets: readonly { in: number; out: number }[]) {
  return buckets.reduce((acc, b) => ({ in: acc.in + b.in, out: acc.out + b.out }), { in: 0, out: 0 });
}
