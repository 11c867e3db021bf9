import type { Db } from '#src/db/client.js';
import type { Job, JobContext } from '#src/jobs/jobs.js';
import { periodicJob } from '#src/jobs/periodic-job.js';
import { SYSTEM_ACTOR } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { VpnSessionsRepo } from './vpn-sessions.repo.js';
import { sessionEndedEvent } from './vpn-sessions.service.js';

/** How often sessions are checked against their location's `peer_disconnect_threshold`. */
export const VPN_SESSION_SWEEP_MS = 10_000;

/**
 * One pass: ends the sessions whose device had neither a handshake nor sent anything for the
 * location's threshold (the gateways' stats reports), with `vpn_session.ended` (reason `inactive`) in the same transaction;
 * the end reaches the gateways as a peer delta. Returns how many ended. Safe on every replica: a
 * session ends once (the update only takes rows still active).
 */
export async function expireVpnSessions(db: Db): Promise<number> {
  return db.transaction(async (raw) => {
    const t = raw as unknown as Db;
    const repo = new VpnSessionsRepo(t);
    const ended = await repo.expireInactive();
    await repo.purgePending();
    if (ended.length > 0) await recordEvent(t, ...ended.map((row) => sessionEndedEvent(SYSTEM_ACTOR, row, 'inactive')));
    return ended.length;
  });
}

export function vpnSessionsJob(ctx: JobContext, intervalMs = VPN_SESSION_SWEEP_MS): Job {
  return periodicJob({
    name: 'vpn-sessions',
    firstDelayMs: intervalMs,
    round: async () => {
      try {
        const ended = await expireVpnSessions(ctx.database.db);
        if (ended > 0) ctx.log.info({ ended }, 'inactive VPN sessions ended');
      } catch (err) {
        ctx.log.error({ err }, 'VPN session expiry failed');
      }
      return intervalMs;
    },
  });
}
