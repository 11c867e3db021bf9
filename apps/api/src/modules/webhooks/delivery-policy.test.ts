import { describe, expect, it } from 'vitest';
import { backoffMs, DELIVERY_POLICY, decide } from './delivery-policy.js';

const HOUR = 3_600_000;
const start = 1_000_000;

describe('webhook delivery policy', () => {
  it('2xx is delivered; other 4xx, 3xx and a blocked address fail at once', () => {
    expect(decide({ status: 204 }, 1, start, start, DELIVERY_POLICY)).toEqual({ outcome: 'delivered' });
    for (const status of [400, 401, 404, 410, 301, 302]) {
      expect(decide({ status }, 1, start, start, DELIVERY_POLICY), String(status)).toEqual({ outcome: 'failed' });
    }
    expect(decide({ failure: 'blocked' }, 1, start, start, DELIVERY_POLICY)).toEqual({ outcome: 'failed' });
  });

  it('5xx, 429, timeouts, network and TLS failures are retried', () => {
    for (const reply of [
      { status: 500 },
      { status: 503 },
      { status: 429 },
      { failure: 'timeout' as const },
      { failure: 'network' as const },
      { failure: 'tls' as const },
    ]) {
      expect(decide(reply, 1, start, start, DELIVERY_POLICY, () => 0.5).outcome, JSON.stringify(reply)).toBe('retrying');
    }
  });

  it('backs off exponentially with full jitter: 5 s doubling, at most 1 h', () => {
    expect(backoffMs(1, DELIVERY_POLICY, () => 1)).toBe(5_000);
    expect(backoffMs(2, DELIVERY_POLICY, () => 1)).toBe(10_000);
    expect(backoffMs(5, DELIVERY_POLICY, () => 1)).toBe(80_000);
    expect(backoffMs(40, DELIVERY_POLICY, () => 1)).toBe(HOUR);
    expect(backoffMs(3, DELIVERY_POLICY, () => 0.25)).toBe(5_000);
    expect(backoffMs(3, DELIVERY_POLICY, () => 0)).toBe(0);
  });

  it('honours Retry-After, capped at 1 h', () => {
    expect(decide({ status: 429, retryAfterMs: 120_000 }, 1, start, start, DELIVERY_POLICY)).toEqual({
      outcome: 'retrying',
      delayMs: 120_000,
    });
    expect(decide({ status: 503, retryAfterMs: 10 * HOUR }, 1, start, start, DELIVERY_POLICY)).toEqual({
      outcome: 'retrying',
      delayMs: HOUR,
    });
  });

  it('gives up when the next attempt would start more than 24 h after the first', () => {
    const late = start + 24 * HOUR - 1_000;
    expect(decide({ status: 500 }, 20, start, late, DELIVERY_POLICY, () => 1)).toEqual({ outcome: 'failed' });
    expect(decide({ status: 500 }, 20, start, late, DELIVERY_POLICY, () => 0)).toEqual({ outcome: 'retrying', delayMs: 0 });
  });
});
