import type { Job, JobContext } from '#src/jobs/jobs.js';
import { periodicJob } from '#src/jobs/periodic-job.js';
import { HttpProblem } from '#src/lib/problem.js';
import { SYSTEM_ACTOR } from '#src/modules/events/event-actor.js';
import { loadLdapConfig } from './ldap-config.js';
import { LdapSyncService } from './sync.service.js';

/** The first look shortly after start; while LDAP or its sync is off, a look every minute. */
export const LDAP_SYNC_FIRST_DELAY_MS = 5_000;
const IDLE_CHECK_MS = 60_000;

/**
 * The scheduled LDAP sync: while LDAP and `ldap_sync_enabled` are on, a run every
 * `ldap_sync_interval` seconds as the system. Replicas each schedule it; the run's advisory lock
 * lets one through and the others skip that round (409 `ldap.sync_running`).
 */
export function ldapSyncJob(ctx: JobContext): Job {
  const service = new LdapSyncService(ctx.database, ctx.secrets);
  /** One round; resolves to the delay before the next. */
  const round = async (): Promise<number> => {
    try {
      const config = await loadLdapConfig(ctx.database.db, ctx.secrets);
      if (!config.enabled || !config.syncEnabled) return IDLE_CHECK_MS;
      const report = await service.run(SYSTEM_ACTOR, { dryRun: false });
      ctx.log.info({ applied: report.applied, failed: report.failed?.length, skipped: report.skipped.length }, 'ldap sync completed');
      return config.syncIntervalSeconds * 1000;
    } catch (err) {
      if (err instanceof HttpProblem && err.code === 'ldap.sync_running') return IDLE_CHECK_MS;
      ctx.log.error({ err }, 'ldap sync failed');
      return IDLE_CHECK_MS;
    }
  };
  return periodicJob({ name: 'ldap-sync', firstDelayMs: LDAP_SYNC_FIRST_DELAY_MS, round });
}
