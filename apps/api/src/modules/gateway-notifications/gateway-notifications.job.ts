import type { Job, JobContext } from '#src/jobs/jobs.js';
import { periodicJob } from '#src/jobs/periodic-job.js';
import { GatewayNotifier } from './gateway-notifications.service.js';

/** How often every replica checks the gateways (the threshold is counted in minutes). */
export const GATEWAY_NOTIFICATIONS_INTERVAL_MS = 20_000;

export interface GatewayNotificationsJobOptions {
  /** One unit of the inactivity threshold; a minute unless a test makes it shorter. */
  thresholdUnitMs?: number;
  intervalMs?: number;
  /** Called after every check, failed or not (tests count checks instead of sleeping). */
  onCheck?: () => void;
}

/**
 * Gateway notifications (docs/gateways.md#notifications): a check every interval on every replica;
 * the claims in the database make one of them send each mail.
 */
export function gatewayNotificationsJob(ctx: JobContext): Job {
  const options = ctx.gatewayNotifications ?? {};
  const intervalMs = options.intervalMs ?? GATEWAY_NOTIFICATIONS_INTERVAL_MS;
  const notifier = new GatewayNotifier(ctx.database.db, ctx.services.mail, ctx.publicUrl, options.thresholdUnitMs);
  return periodicJob({
    name: 'gateway-notifications',
    firstDelayMs: intervalMs,
    round: async () => {
      try {
        const result = await notifier.check();
        if (result.disconnected > 0 || result.reconnected > 0) ctx.log.info(result, 'gateway notifications queued');
      } catch (err) {
        ctx.log.error({ err }, 'gateway notifications check failed');
      }
      options.onCheck?.();
      return intervalMs;
    },
  });
}
