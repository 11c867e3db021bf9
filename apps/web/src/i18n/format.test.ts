import { describe, expect, it } from 'vitest';
import { formatDate, formatNumber } from './format';

describe('Intl formatting follows the language', () => {
  it('formats numbers per locale', () => {
    expect(formatNumber('en', 10000)).toBe('10,000');
    expect(formatNumber('pl', 10000).replace(/\s/g, ' ')).toBe('10 000');
  });

  it('formats dates per locale', () => {
    const iso = '2026-11-21T10:00:00Z';
    expect(formatDate('en', iso)).toMatch(/Nov/);
    expect(formatDate('pl', iso)).toMatch(/lis/);
    expect(formatDate('ko', iso)).toMatch(/2026\. 11\./);
    expect(formatDate('en', 'not a date')).toBe('');
  });
});
