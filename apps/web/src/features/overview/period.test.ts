import { describe, expect, it } from 'vitest';
import { fromForPeriod, parseOverviewSearch, parsePeriod, periodChoices } from './period';

describe('parsePeriod', () => {
  it('accepts whole hours from 1 to 720, as numbers or URL strings', () => {
    expect(parsePeriod(1)).toBe(1);
    expect(parsePeriod('24')).toBe(24);
    expect(parsePeriod(720)).toBe(720);
  });

  it('drops anything else', () => {
    for (const bad of [0, -1, 1.5, 721, '1e2', 'abc', '', null, undefined, '99999']) expect(parsePeriod(bad), String(bad)).toBeUndefined();
  });
});

describe('parseOverviewSearch', () => {
  it('keeps only non-default, valid values', () => {
    expect(parseOverviewSearch({})).toEqual({});
    // The view stays whichever it is: the default view is a setting, not 'grid'.
    expect(parseOverviewSearch({ period: 1, view: 'grid' })).toEqual({ view: 'grid' });
    expect(parseOverviewSearch({ period: 24, view: 'list' })).toEqual({ period: 24, view: 'list' });
    expect(parseOverviewSearch({ period: 'x', view: 'table', other: 1 })).toEqual({});
  });
});

describe('periodChoices', () => {
  it('offers the presets and adds a custom URL value in order', () => {
    expect(periodChoices(1)).toEqual([1, 3, 6, 12, 24, 72, 168]);
    expect(periodChoices(48)).toEqual([1, 3, 6, 12, 24, 48, 72, 168]);
  });
});

describe('fromForPeriod', () => {
  it('is now minus N hours in UTC ISO, floored to the minute', () => {
    const now = Date.UTC(2026, 10, 21, 10, 30, 45, 123);
    expect(fromForPeriod(1, now)).toBe('2026-11-21T09:30:00.000Z');
    expect(fromForPeriod(24, now)).toBe('2026-11-20T10:30:00.000Z');
  });
});
