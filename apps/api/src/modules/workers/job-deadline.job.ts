import type { Job, JobContext } from '#src/jobs/jobs.js';
import { periodicJob } from '#src/jobs/periodic-job.js';
import { WorkersService } from './workers.service.js';

/** WORKER_JOB_DEADLINE_SECONDS' default (env.ts), for a context that does not say. */
const DEFAULT_DEADLINE_MS = 300_000;

/**
 * The provisioning job deadline (docs/provisioning.md, job lifecycle): a job in progress whose
 * station gave no sign of life (poll, job heartbeat, result) for the deadline fails with "The
 * provisioning station stopped answering." Swept every quarter of the deadline (at most 5 s), so a
 * job fails at most that long after its deadline.
 */
export function workerJobDeadlineJob(ctx: JobContext): Job {
  const deadlineMs = ctx.workerJobDeadlineMs ?? DEFAULT_DEADLINE_MS;
  // Only the deadline matters here; the heartbeat timeout does not take part in the sweep.
  const service = new WorkersService(ctx.database.db, { heartbeatTimeoutMs: deadlineMs, jobDeadlineMs: deadlineMs });
  const intervalMs = Math.max(250, Math.min(5000, Math.floor(deadlineMs / 4)));
  return periodicJob({
    name: 'worker-job-deadline',
    firstDelayMs: intervalMs,
    round: async () => {
      try {
        const failed = await service.expireOverdueJobs();
        if (failed.length > 0) ctx.log.warn({ jobs: failed }, 'provisioning jobs failed: their station stopped answering');
      } catch (err) {
        ctx.log.error({ err }, 'provisioning job deadline sweep failed');
      }
      return intervalMs;
    },
  });
}
