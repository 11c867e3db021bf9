import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import type { MfaMethod } from '#src/modules/mfa/mfa.core.js';

/** A session with its device and location names (GET /vpn_session). */
export interface SessionRow {
  id: number;
  user_id: number;
  device_id: number;
  device_name: string;
  location_id: number;
  location_name: string;
  started_at: Date;
  last_handshake: Date | null;
  ended_at: Date | null;
  end_reason: string | null;
}

/** A challenge waiting for its second factor. */
export interface PendingChallenge {
  id: number;
  device_id: number;
  location_id: number;
  mfa_method: MfaMethod;
  webauthn_challenge: string | null;
}

/** The user's device holding an address in the location, and whether the location is MFA-protected. */
export interface Target {
  device_id: number;
  device_name: string;
  location_id: number;
  location_name: string;
  mfa_enabled: boolean;
}

const SESSION_COLUMNS = sql`s.id, s.user_id, s.device_id, d.name as device_name, s.location_id, l.name as location_name,
  s.started_at, s.last_handshake, s.ended_at, s.end_reason`;

/** SQL of the VPN sessions of MFA-protected locations (vpn_sessions, migration 0017). */
export class VpnSessionsRepo {
  constructor(private readonly db: Db) {}

  async target(userId: number, locationId: number, pubkey: string): Promise<Target | undefined> {
    const [row] = await queryRows<Target>(
      this.db,
      sql`select d.id as device_id, d.name as device_name, l.id as location_id, l.name as location_name, l.mfa_enabled
            from devices d join device_ips di on di.device_id = d.id join locations l on l.id = di.location_id
           where d.kind = 'user' and d.user_id = ${userId} and d.wireguard_pubkey = ${pubkey} and l.id = ${locationId}
           limit 1`,
    );
    return row;
  }

  async insertPending(values: {
    userId: number;
    deviceId: number;
    locationId: number;
    challengeHash: string;
    expiresAt: Date;
    method: MfaMethod;
    webauthnChallenge: string | null;
  }) {
    await this.db.execute(
      sql`insert into vpn_sessions (user_id, device_id, location_id, challenge_hash, challenge_expires_at, mfa_method, webauthn_challenge)
          values (${values.userId}, ${values.deviceId}, ${values.locationId}, ${values.challengeHash}, ${values.expiresAt.toISOString()},
                  ${values.method}, ${values.webauthnChallenge})`,
    );
  }

  /**
   * A pending, unexpired challenge of the user. With `lock`, locked until the transaction ends (a
   * second finish of the same challenge waits, then finds it started). A wrong answer leaves it pending.
   */
  async pendingChallenge(userId: number, challengeHash: string, lock = false): Promise<PendingChallenge | undefined> {
    const [row] = await queryRows<PendingChallenge>(
      this.db,
      sql`select id, device_id, location_id, mfa_method, webauthn_challenge from vpn_sessions
           where challenge_hash = ${challengeHash} and user_id = ${userId} and started_at is null and challenge_expires_at > now()
           ${lock ? sql`for update` : sql``}`,
    );
    return row;
  }

  /** Ends the active session of (device, location), if any; returns the ended ids. */
  async endActive(deviceId: number, locationId: number, reason: string): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`update vpn_sessions set ended_at = now(), end_reason = ${reason}
           where device_id = ${deviceId} and location_id = ${locationId} and started_at is not null and ended_at is null
       returning id`,
    );
    return rows.map((r) => r.id);
  }

  /** Starts the session with its key; the challenge is spent. */
  async start(id: number, presharedKeyEnc: string): Promise<void> {
    await this.db.execute(
      sql`update vpn_sessions set started_at = now(), preshared_key_enc = ${presharedKeyEnc}, challenge_hash = null, webauthn_challenge = null
           where id = ${id}`,
    );
  }

  async get(id: number): Promise<SessionRow | undefined> {
    const [row] = await queryRows<SessionRow>(
      this.db,
      sql`select ${SESSION_COLUMNS} from vpn_sessions s join devices d on d.id = s.device_id join locations l on l.id = s.location_id
           where s.id = ${id} and s.started_at is not null`,
    );
    return row;
  }

  /** The user's started sessions, active first, newest first (at most 100). */
  async listForUser(userId: number): Promise<SessionRow[]> {
    return queryRows<SessionRow>(
      this.db,
      sql`select ${SESSION_COLUMNS} from vpn_sessions s join devices d on d.id = s.device_id join locations l on l.id = s.location_id
           where s.user_id = ${userId} and s.started_at is not null
           order by (s.ended_at is null) desc, s.started_at desc, s.id desc limit 100`,
    );
  }

  /** Ends the session if active; the ended row, or undefined when it was not active. */
  async end(id: number, reason: string): Promise<SessionRow | undefined> {
    const [row] = await queryRows<{ id: number }>(
      this.db,
      sql`update vpn_sessions set ended_at = now(), end_reason = ${reason}
           where id = ${id} and started_at is not null and ended_at is null returning id`,
    );
    return row ? this.get(row.id) : undefined;
  }

  /** Ends all the user's active sessions (their peers leave the gateways as deltas); the ended rows. */
  async endForUser(userId: number, reason: string): Promise<SessionRow[]> {
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`update vpn_sessions set ended_at = now(), end_reason = ${reason}
           where user_id = ${userId} and started_at is not null and ended_at is null returning id`,
    );
    const out: SessionRow[] = [];
    for (const r of rows) {
      const row = await this.get(r.id);
      if (row) out.push(row);
    }
    return out;
  }

  /**
   * Ends active sessions whose device was silent with the location for its
   * `peer_disconnect_threshold` (seconds): no handshake (counted from the latest one the gateways
   * reported or, before the first one, from the session's start) and no growth of what the device
   * sent (a gateway's rx counter, `upload`) between two reports of the same gateway. WireGuard
   * renews a handshake only about every 120 s while traffic flows, so the handshake alone would
   * end sessions in use under a short threshold. The counters are read only for the sessions the
   * handshake would end, over twice the threshold (so the report before each one in the threshold
   * is there; stats come far more often than that). Both reads take one device's recent reports
   * through `peer_stats_device_time_idx`: a newer handshake comes in a report collected after the
   * one already recorded, so reports from before `last_handshake` (less a minute of clock slack)
   * are not read again.
   * `upload` alone: the gateway's tx grows with its own handshake attempts to a device that is gone.
   * Updates `last_handshake` first.
   */
  async expireInactive(): Promise<SessionRow[]> {
    await this.db.execute(sql`
      update vpn_sessions s set last_handshake = h.latest
        from vpn_sessions a
        cross join lateral (select max(ps.latest_handshake) as latest from peer_stats ps
                             where ps.device_id = a.device_id and ps.location_id = a.location_id
                               and ps.collected_at >= greatest(a.started_at, coalesce(a.last_handshake, a.started_at) - interval '1 minute')) h
       where s.id = a.id and a.started_at is not null and a.ended_at is null
         and h.latest is not null and h.latest >= s.started_at and (s.last_handshake is null or h.latest > s.last_handshake)`);
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`update vpn_sessions s set ended_at = now(), end_reason = 'inactive'
            from locations l
           where l.id = s.location_id and s.started_at is not null and s.ended_at is null
             and greatest(s.started_at, coalesce(s.last_handshake, s.started_at)) < now() - make_interval(secs => l.peer_disconnect_threshold)
             and not exists (
                   select 1 from (
                     select ps.collected_at, ps.upload,
                            lag(ps.upload) over (partition by ps.gateway_id order by ps.collected_at) as previous
                       from peer_stats ps
                      where ps.location_id = s.location_id and ps.device_id = s.device_id
                        and ps.collected_at >= now() - make_interval(secs => 2 * l.peer_disconnect_threshold)) r
                    where r.upload > r.previous and r.collected_at >= now() - make_interval(secs => l.peer_disconnect_threshold))
       returning s.id`,
    );
    const out: SessionRow[] = [];
    for (const r of rows) {
      const row = await this.get(r.id);
      if (row) out.push(row);
    }
    return out;
  }

  async purgePending(): Promise<void> {
    await this.db.execute(sql`delete from vpn_sessions where started_at is null and challenge_expires_at < now() - interval '1 hour'`);
  }
}
