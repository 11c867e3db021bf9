import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import type { DatabaseHandle } from '#src/db/client.js';
import { ActivityLogRepo } from '#src/modules/activity-log/activity-log.repo.js';
import type { Job, JobContext } from './jobs.js';
import { periodicJob } from './periodic-job.js';

/**
 * Activity log retention (`settings.activity_log_retention_days`; 0 keeps everything): shortly
 * after start and then every hour, deletes older entries in batches of BATCH rows, each its own
 * short statement with a pause between, so writers are never held up and no long transaction
 * holds back the event consumers. Entries a consumer has still to read stay. One replica at a
 * time: a session advisory try-lock on the connection that runs the batches.
 */
export const PURGE_FIRST_DELAY_MS = 60_000;
export const PURGE_INTERVAL_MS = 3_600_000;
const BATCH = 5_000;
const PAUSE_MS = 200;

export interface PurgeOptions {
  batch?: number;
  pauseMs?: number;
  /** Checked between batches: a stopping process ends its purge early. */
  isStopped?: () => boolean;
}

/** One purge pass; resolves to the rows deleted, or undefined when another replica holds the lock. */
export async function purgeActivityLog(
  database: DatabaseHandle,
  retentionDays: number,
  options: PurgeOptions = {},
): Promise<number | undefined> {
  if (retentionDays <= 0) return 0;
  const batch = options.batch ?? BATCH;
  return database.withConnection(async (conn) => {
    const repo = new ActivityLogRepo(conn);
    if (!(await repo.tryLock(ADVISORY_LOCKS.activityLogPurge))) return undefined;
    try {
      let deleted = 0;
      for (;;) {
        const keep = await repo.oldestConsumerCursor();
        const n = await repo.purgeBatch(retentionDays, keep, batch);
        deleted += n;
        if (n < batch || options.isStopped?.()) return deleted;
        await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? PAUSE_MS));
      }
    } finally {
      await repo.unlock(ADVISORY_LOCKS.activityLogPurge);
    }
  });
}

export function activityLogPurgeJob(ctx: JobContext): Job {
  return periodicJob({
    name: 'activity-log-purge',
    firstDelayMs: PURGE_FIRST_DELAY_MS,
    round: async (isStopped) => {
      try {
        const { activity_log_retention_days: days } = await ctx.services.settings.get();
        const deleted = await purgeActivityLog(ctx.database, days, { isStopped });
        if (deleted) ctx.log.info({ deleted, retentionDays: days }, 'activity log purged');
      } catch (err) {
        ctx.log.error({ err }, 'activity log purge failed');
      }
      return PURGE_INTERVAL_MS;
    },
  });
}
