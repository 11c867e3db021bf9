import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date as the time left until then, 0 when it has passed', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores what is neither', () => {
    for (const value of [undefined, '', '-5', '1.5', '5.5', 'soon', '12abc']) {
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
    }
  });

  it('caps absurd values at one year', () => {
    expect(parseRetryAfter('999999999999999999999', now)).toBe(365 * 24 * 3600 * 1000);
  });
});
