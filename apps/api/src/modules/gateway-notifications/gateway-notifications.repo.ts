import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { STALE_SECONDS } from '#src/modules/gateways/gateways.repo.js';

/** A gateway whose disconnect (or return) a mail is about; `at` is UTC text, `YYYY-MM-DD HH:MM`. */
export interface NotifiedGateway {
  id: number;
  location_id: number;
  location_name: string;
  name: string;
  hostname: string;
  at: string;
}

export interface AdminRecipient {
  email: string;
  language: string | null;
}

/** Connected: a stream holds the gateway and its replica refreshed it recently (as gateways.repo). */
const connected = sql`(g.stream_id is not null and g.last_seen_at > now() - make_interval(secs => ${STALE_SECONDS}))`;
const utcText = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD HH24:MI')`;

/**
 * State of gateway notifications: `gateways.disconnect_notified_at` is set when the disconnect
 * mail of the current disconnection is queued and cleared when the gateway is back. Each claim is
 * one conditional UPDATE … RETURNING, run in the transaction that queues the mails: of several
 * replicas checking at once, the row lock lets exactly one of them claim a gateway.
 */
export class GatewayNotificationsRepo {
  constructor(private readonly db: Db) {}

  /** Gateways disconnected for longer than `thresholdMs` with no disconnect mail yet; marks them notified. */
  claimDisconnected(thresholdMs: number): Promise<NotifiedGateway[]> {
    const since = sql`coalesce(g.disconnected_at, g.last_seen_at, g.connected_at)`;
    return queryRows<NotifiedGateway>(
      this.db,
      sql`update gateways g set disconnect_notified_at = now()
            from locations l
           where l.id = g.location_id and g.disconnect_notified_at is null and not ${connected}
             and ${since} < now() - make_interval(secs => ${thresholdMs / 1000}::double precision)
       returning g.id, g.location_id, l.name as location_name, g.name, g.hostname, ${utcText(since)} as at`,
    );
  }

  /**
   * Gateways with a disconnect mail that are back: connected now, or connected again since the
   * mail (and gone again: that is a new disconnection, mailed on its own). Clears their mark.
   */
  claimReconnected(): Promise<NotifiedGateway[]> {
    return queryRows<NotifiedGateway>(
      this.db,
      sql`update gateways g set disconnect_notified_at = null
            from locations l
           where l.id = g.location_id and g.disconnect_notified_at is not null
             and (${connected} or g.connected_at > g.disconnect_notified_at)
       returning g.id, g.location_id, l.name as location_name, g.name, g.hostname, ${utcText(sql`g.connected_at`)} as at`,
    );
  }

  /** Active administrators (members of an admin group) with an email address, and their mail language. */
  admins(): Promise<AdminRecipient[]> {
    return queryRows<AdminRecipient>(
      this.db,
      sql`select u.email, u.language from users u
           where u.is_active and u.email <> ''
             and exists (select 1 from group_members gm join groups g on g.id = gm.group_id where gm.user_id = u.id and g.is_admin)
           order by u.id`,
    );
  }
}
