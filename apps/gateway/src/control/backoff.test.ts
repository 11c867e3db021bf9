import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffCap, backoffDelay, RECONNECT, SLOW_RECONNECT } from './backoff.js';

describe('backoff', () => {
  it('doubles from 500 ms and stops at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffCap(n, RECONNECT))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('keeps every delay within [cap/2, cap] and never above the maximum', () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempt, r) => {
        const d = backoffDelay(attempt, RECONNECT, () => r);
        const cap = backoffCap(attempt, RECONNECT);
        expect(d).toBeGreaterThanOrEqual(cap / 2);
        expect(d).toBeLessThanOrEqual(cap);
        expect(d).toBeLessThanOrEqual(RECONNECT.maxMs);
      }),
    );
  });

  it('spreads gateways out (jitter) and waits minutes for operator errors', () => {
    expect(backoffDelay(3, RECONNECT, () => 0)).toBe(2000);
    expect(backoffDelay(3, RECONNECT, () => 0.999)).toBe(3998);
    expect(backoffDelay(0, SLOW_RECONNECT, () => 0)).toBe(30_000);
    expect(backoffCap(10, SLOW_RECONNECT)).toBe(300_000);
  });
});
