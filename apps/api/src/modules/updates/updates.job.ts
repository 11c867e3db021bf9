import type { Job, JobContext } from '#src/jobs/jobs.js';
import { periodicJob } from '#src/jobs/periodic-job.js';

/** The first check, soon after start (or after one interval when that is shorter). */
export const UPDATE_CHECK_FIRST_DELAY_MS = 30_000;

/**
 * Reads the release feed (docs/updates.md) soon after start and then once per
 * UPDATE_CHECK_INTERVAL_SECONDS (6 h by default): rounds never overlap, so the feed sees at most
 * one request per interval from this process. Nothing runs when update checks are off.
 */
export function updateCheckJob(ctx: JobContext): Job {
  const checker = ctx.updates;
  if (!checker?.enabled) return { name: 'update-check', start: () => {}, stop: async () => {} };
  const intervalMs = ctx.updateCheckIntervalMs ?? 6 * 3600_000;
  return periodicJob({
    name: 'update-check',
    firstDelayMs: Math.min(UPDATE_CHECK_FIRST_DELAY_MS, intervalMs),
    round: async () => {
      await checker.check();
      return intervalMs;
    },
  });
}
