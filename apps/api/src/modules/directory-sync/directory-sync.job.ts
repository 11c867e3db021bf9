import type { Job, JobContext } from '#src/jobs/jobs.js';
import { periodicJob } from '#src/jobs/periodic-job.js';
import { DirectorySyncService } from './directory-sync.service.js';

/** How often the job looks whether a run is due (sync_interval is at least 60 s). */
export const DIRECTORY_SYNC_TICK_MS = 30_000;

/**
 * Directory sync on the provider's sync_interval (seconds): every tick, a run when the last one
 * (the activity log's `directory.sync_completed` / `directory.sync_failed`) ended at least that
 * long ago, so replicas and restarts keep the pace; the first tick comes shortly after start.
 */
export function directorySyncJob(ctx: JobContext): Job {
  const service = new DirectorySyncService(ctx.database, ctx.secrets, ctx.directorySync?.endpoints);
  const tickMs = ctx.directorySync?.tickMs ?? DIRECTORY_SYNC_TICK_MS;
  return periodicJob({
    name: 'directory-sync',
    firstDelayMs: tickMs,
    round: async () => {
      try {
        const outcome = await service.runIfDue();
        if (outcome.state === 'done')
          ctx.log.info({ summary: { ...outcome.summary, skipped: outcome.summary.skipped.length } }, 'directory sync completed');
        if (outcome.state === 'failed') ctx.log.warn({ reason: outcome.reason }, 'directory sync failed');
      } catch (err) {
        ctx.log.error({ err }, 'directory sync failed');
      }
      return tickMs;
    },
  });
}
