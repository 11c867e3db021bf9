import { sweepExpiredRules } from '#src/modules/acl/compiler/expiry.repo.js';
import type { Job, JobContext } from './jobs.js';
import { periodicJob } from './periodic-job.js';

/** How often expired ACL rules are looked for when ACL_EXPIRY_INTERVAL_MS does not say. */
export const ACL_EXPIRY_SWEEP_MS = 5_000;

/**
 * Expired ACL rules leave the gateways' firewalls: every interval, the rules whose `expires`
 * passed since the last sweep get a `fw_rule` change, which the gateway feed sends as removals
 * of their parts (expiry.repo.ts). A rule therefore stops applying at most one interval (plus
 * the delta's trip) after its time.
 */
export function aclExpiryJob(ctx: JobContext): Job {
  const intervalMs = ctx.aclExpiryIntervalMs ?? ACL_EXPIRY_SWEEP_MS;
  return periodicJob({
    name: 'acl-expiry',
    firstDelayMs: intervalMs,
    round: async () => {
      try {
        const marked = await sweepExpiredRules(ctx.database.db);
        if (marked && marked.length > 0) ctx.log.info({ rules: marked }, 'expired ACL rules sent to gateways');
      } catch (err) {
        ctx.log.error({ err }, 'ACL rule expiry failed');
      }
      return intervalMs;
    },
  });
}
