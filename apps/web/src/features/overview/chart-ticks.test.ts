import { describe, expect, it } from 'vitest';
import { dayBoundaries, estimateLabelWidth, timeTicks } from './chart-ticks';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('timeTicks over a week', () => {
  // The review's case: a 168 h window ending 2026-11-24 09:13 UTC, seen from Warsaw (UTC+1).
  const end = Date.UTC(2026, 10, 24, 9, 13);
  const start = end - 168 * HOUR;
  const options = { spanHours: 168, minSpacing: 56, timeZone: 'Europe/Warsaw' };

  it('puts a tick on every local midnight, none skipped, at even spacing', () => {
    const ticks = timeTicks(start, end, { ...options, pxPerMs: 800 / (168 * HOUR) });
    expect(ticks.map((t) => iso(t.time))).toEqual([
      '2026-11-17T23:00:00.000Z',
      '2026-11-18T23:00:00.000Z',
      '2026-11-19T23:00:00.000Z', // Nov 20 in Warsaw
      '2026-11-20T23:00:00.000Z',
      '2026-11-21T23:00:00.000Z',
      '2026-11-22T23:00:00.000Z',
      '2026-11-23T23:00:00.000Z',
    ]);
    expect(ticks.every((t) => t.isLabelled)).toBe(true);
    const gaps = ticks.slice(1).map((t, i) => t.time - (ticks[i]?.time ?? 0));
    expect(new Set(gaps)).toEqual(new Set([24 * HOUR]));
  });

  it('keeps every day tick when narrow, labelling every other day back from the latest', () => {
    const ticks = timeTicks(start, end, { ...options, pxPerMs: 250 / (168 * HOUR) });
    expect(ticks).toHaveLength(7);
    expect(ticks.map((t) => t.isLabelled)).toEqual([true, false, true, false, true, false, true]);
  });

  it('follows the zone: Seoul midnights are 15:00 UTC', () => {
    const ticks = timeTicks(start, end, { ...options, timeZone: 'Asia/Seoul', pxPerMs: 800 / (168 * HOUR) });
    expect(ticks.map((t) => new Date(t.time).getUTCHours())).toEqual(Array(ticks.length).fill(15));
    expect(ticks).toHaveLength(7);
  });
});

describe('dayBoundaries', () => {
  it('has days of 23 and 25 hours across DST changes', () => {
    const spring = dayBoundaries(Date.UTC(2026, 2, 28), Date.UTC(2026, 2, 31), 'Europe/Warsaw');
    expect(spring.map(iso)).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', '2026-03-30T22:00:00.000Z']);
    const autumn = dayBoundaries(Date.UTC(2026, 9, 24), Date.UTC(2026, 9, 27), 'Europe/Warsaw');
    expect(autumn.map(iso)).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z', '2026-10-26T23:00:00.000Z']);
  });

  it('handles offsets that are not whole hours (Kathmandu, UTC+5:45)', () => {
    expect(dayBoundaries(Date.UTC(2026, 10, 20), Date.UTC(2026, 10, 21), 'Asia/Kathmandu').map(iso)).toEqual(['2026-11-20T18:15:00.000Z']);
  });

  it('counts a window that starts on midnight, and nothing inside one day', () => {
    expect(dayBoundaries(Date.UTC(2026, 10, 19, 23), Date.UTC(2026, 10, 20, 12), 'Europe/Warsaw').map(iso)).toEqual([
      '2026-11-19T23:00:00.000Z',
    ]);
    expect(dayBoundaries(Date.UTC(2026, 10, 19, 23, 30), Date.UTC(2026, 10, 20, 12), 'Europe/Warsaw')).toEqual([]);
  });
});

describe('timeTicks within a day', () => {
  it('uses round local hours, as many as fit', () => {
    const start = Date.UTC(2026, 10, 20, 6, 7);
    const end = start + 24 * HOUR;
    const ticks = timeTicks(start, end, { spanHours: 24, pxPerMs: 600 / (24 * HOUR), minSpacing: 50, timeZone: 'Asia/Kolkata' });
    // 600 px / 24 h = 25 px per hour: 2-hour steps are the first to leave 50 px between labels.
    const local = ticks.map((t) => new Date(t.time + 5.5 * HOUR));
    expect(local.every((d) => d.getUTCMinutes() === 0 && d.getUTCHours() % 2 === 0)).toBe(true);
    expect(ticks).toHaveLength(12);
  });

  it('uses round minutes for an hour', () => {
    const start = Date.UTC(2026, 10, 20, 10, 3);
    const ticks = timeTicks(start, start + HOUR, { spanHours: 1, pxPerMs: 600 / HOUR, minSpacing: 50, timeZone: 'UTC' });
    expect(ticks.map((t) => new Date(t.time).getUTCMinutes())).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 0]);
  });
});

describe('estimateLabelWidth', () => {
  it('counts wide characters double', () => {
    expect(estimateLabelWidth('11월 20일')).toBeGreaterThan(estimateLabelWidth('Nov 20'));
  });
});
