import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobContext } from '#src/jobs/jobs.js';
import type { UpdateChecker } from './update-checker.js';
import { UPDATE_CHECK_FIRST_DELAY_MS, updateCheckJob } from './updates.job.js';

const HOUR = 3600_000;

/** A checker stand-in that counts feed reads; `hold` keeps the next reads pending until released. */
function fakeChecker(enabled = true) {
  let release: () => void = () => {};
  let held = false;
  const checker = {
    enabled,
    reads: 0,
    hold() {
      held = true;
    },
    release() {
      held = false;
      release();
    },
    check: () => {
      checker.reads++;
      return held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
    },
  };
  return checker;
}

const contextWith = (checker: ReturnType<typeof fakeChecker>, intervalMs?: number) =>
  ({ updates: checker as unknown as UpdateChecker, updateCheckIntervalMs: intervalMs }) as JobContext;

describe('updateCheckJob', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads the feed 30 s after start, then once per interval (6 h by default)', async () => {
    const checker = fakeChecker();
    const job = updateCheckJob(contextWith(checker));
    job.start();
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_FIRST_DELAY_MS - 1);
    expect(checker.reads).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(checker.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(6 * HOUR - 1);
    expect(checker.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(checker.reads).toBe(2);
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(checker.reads).toBe(6);
    await job.stop();
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(checker.reads).toBe(6);
  });

  it('never overlaps reads: a slow feed delays the next one, the interval counts from its end', async () => {
    const checker = fakeChecker();
    const job = updateCheckJob(contextWith(checker, HOUR));
    job.start();
    checker.hold();
    await vi.advanceTimersByTimeAsync(UPDATE_CHECK_FIRST_DELAY_MS);
    expect(checker.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(10 * HOUR);
    expect(checker.reads).toBe(1);
    checker.release();
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(checker.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(checker.reads).toBe(2);
    await job.stop();
  });

  it('starts after one interval when that is shorter than 30 s', async () => {
    const checker = fakeChecker();
    const job = updateCheckJob(contextWith(checker, 1000));
    job.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(checker.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(checker.reads).toBe(6);
    await job.stop();
  });

  it('does nothing when update checks are off', async () => {
    const checker = fakeChecker(false);
    const job = updateCheckJob(contextWith(checker, 1000));
    job.start();
    await vi.advanceTimersByTimeAsync(24 * HOUR);
    expect(checker.reads).toBe(0);
    await job.stop();
  });
});
