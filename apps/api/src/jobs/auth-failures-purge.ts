import type { Db } from '#src/db/client.js';
import { IP_POLICY, USERNAME_POLICY } from '#src/modules/auth/auth.service.js';
import { CLIENT_TOKEN_IP_POLICY } from '#src/modules/enrollment/client-cli.service.js';
import { REDEMPTION_LIMITS } from '#src/modules/enrollment/redemption-limiter.js';
import type { Job, JobContext } from './jobs.js';
import { AuthFailuresRepo } from './auth-failures.repo.js';
import { periodicJob } from './periodic-job.js';

/**
 * The longest counting window of the rows of `auth_failures` (login lockout per account and per
 * address, the MFA step, CLI-token and one-time-token redemption limits). A row whose window began
 * longer ago than that, and which holds no lock, counts for nothing: the next attempt on its key
 * starts a new window at 1, exactly as without the row.
 */
export const AUTH_FAILURES_RETENTION_SECONDS = Math.max(
  USERNAME_POLICY.windowSeconds,
  IP_POLICY.windowSeconds,
  CLIENT_TOKEN_IP_POLICY.windowSeconds,
  REDEMPTION_LIMITS.windowSeconds,
);
export const AUTH_FAILURES_PURGE_FIRST_DELAY_MS = 60_000;
export const AUTH_FAILURES_PURGE_INTERVAL_MS = AUTH_FAILURES_RETENTION_SECONDS * 1000;
const BATCH = 5_000;

/**
 * One purge pass: deletes, in batches, the rows whose window is over and that hold no lock that is
 * still running (`AuthFailuresRepo.purgeSpent`). Several replicas purging at once only delete the
 * same rows. Resolves to the rows deleted.
 */
export async function purgeAuthFailures(
  db: Db,
  options: { retentionSeconds?: number; batch?: number; isStopped?: () => boolean } = {},
): Promise<number> {
  const repo = new AuthFailuresRepo(db);
  let deleted = 0;
  for (;;) {
    const n = await repo.purgeSpent(options.retentionSeconds ?? AUTH_FAILURES_RETENTION_SECONDS, options.batch ?? BATCH);
    deleted += n;
    if (n < (options.batch ?? BATCH) || options.isStopped?.()) return deleted;
  }
}

/** Shortly after start, then once per retention window: `auth_failures` stops growing for ever. */
export function authFailuresPurgeJob(ctx: JobContext): Job {
  return periodicJob({
    name: 'auth-failures-purge',
    firstDelayMs: AUTH_FAILURES_PURGE_FIRST_DELAY_MS,
    round: async (isStopped) => {
      try {
        const deleted = await purgeAuthFailures(ctx.database.db, { isStopped });
        if (deleted) ctx.log.debug({ deleted }, 'spent rate-limit counters purged');
      } catch (err) {
        ctx.log.error({ err }, 'rate-limit counter purge failed');
      }
      return AUTH_FAILURES_PURGE_INTERVAL_MS;
    },
  });
}
