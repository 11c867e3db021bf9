import { purgeExpiredArtifacts } from '#src/oidc/provider.repo.js';
import type { Job, JobContext } from './jobs.js';

/**
 * Deletes the OpenID provider's expired artifacts (codes, tokens, sessions, interactions, grants)
 * every 10 minutes, in batches. Expired rows are never returned before that (the adapter checks
 * `expires_at`), so the purge only keeps the table small; several replicas purging at once only
 * delete the same rows.
 */
export const OIDC_PURGE_INTERVAL_MS = 600_000;
const BATCH = 5_000;

export async function purgeOidcArtifacts(ctx: Pick<JobContext, 'database'>, isStopped: () => boolean = () => false): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await purgeExpiredArtifacts(ctx.database.db, BATCH);
    deleted += n;
    if (n < BATCH || isStopped()) return deleted;
  }
}

export function oidcPurgeJob(ctx: JobContext): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = async () => {
    try {
      const deleted = await purgeOidcArtifacts(ctx, () => stopped);
      if (deleted) ctx.log.info({ deleted }, 'expired OpenID artifacts purged');
    } catch (err) {
      ctx.log.error({ err }, 'OpenID artifact purge failed');
    }
  };
  return {
    name: 'oidc-purge',
    start() {
      timer = setInterval(() => {
        running ??= run().finally(() => {
          running = undefined;
        });
      }, OIDC_PURGE_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
