import { describe, expect, it } from 'vitest';
import { STREAM_DELIVERY, streamBackoffMs } from './stream-delivery.js';

describe('stream delivery backoff', () => {
  it('doubles from 1 s to at most 60 s, each wait drawn from half to all of it', () => {
    const low = (n: number) => streamBackoffMs(n, () => 0);
    const high = (n: number) => streamBackoffMs(n, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map(high)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect([1, 2, 7, 1_000].map(low)).toEqual([500, 1_000, 30_000, 30_000]);
    for (let n = 1; n < 20; n++) {
      const ms = streamBackoffMs(n);
      expect(ms).toBeGreaterThanOrEqual(high(n) / 2);
      expect(ms).toBeLessThanOrEqual(STREAM_DELIVERY.backoffMaxMs);
    }
  });
});
