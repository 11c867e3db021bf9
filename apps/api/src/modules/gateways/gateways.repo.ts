import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';

/** Gateway status rows and the location token (gateway_location_state, gateways). */
const CHANNEL = 'palisade_gateway';
/** A stream's replica refreshes `last_seen_at` every 30 s; silence past this means it is gone. */
export const STALE_SECONDS = 90;

export interface GatewayStatusRow {
  id: number;
  location_id: number;
  location_name: string;
  gateway_id: string;
  name: string;
  hostname: string;
  version: string;
  interface_name: string;
  implementation: 'kernel' | 'userspace' | 'unknown';
  connected: boolean;
  connected_at: Date | null;
  disconnected_at: Date | null;
  last_seen_at: Date | null;
  acknowledged_revision: string;
  acknowledged_epoch: string;
  location_revision: string;
  revision_epoch: string;
  state: 'synced' | 'resyncing' | 'degraded' | 'unknown';
  status_message: string | null;
  peer_count: number | null;
}

export interface DeletedGateway {
  id: number;
  gateway_id: string;
  name: string;
  hostname: string;
  version: string;
  /** The stream that held it when deleted (null when not connected). */
  stream_id: string | null;
  location_id: number;
  location_name: string;
}

const toDate = (v: Date | string | null) => (v === null ? null : new Date(v));

export class GatewaysRepo {
  constructor(private readonly db: Db) {}

  async token(locationId: number): Promise<{ tokenEnc: string | null } | undefined> {
    const [row] = await queryRows<{ token_enc: string | null }>(
      this.db,
      sql`select token_enc from gateway_location_state where location_id = ${locationId}`,
    );
    return row && { tokenEnc: row.token_enc };
  }

  /**
   * Stores a new token and tells every replica (on commit) to cut off streams holding another.
   * `inTx` runs in the same transaction once the token is stored (the event of the change).
   */
  async setToken(
    locationId: number,
    tokenHash: string,
    tokenEnc: string,
    onlyIfUnset: boolean,
    inTx?: (t: Db, location: { id: number; name: string }) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction(async (t) => {
      const updated = await queryRows<{ id: number; name: string }>(
        t as unknown as Db,
        sql`update gateway_location_state s set token_hash = ${tokenHash}, token_enc = ${tokenEnc}, token_created_at = now()
              from locations l
             where l.id = s.location_id and s.location_id = ${locationId} ${onlyIfUnset ? sql`and s.token_hash is null` : sql``}
             returning l.id, l.name`,
      );
      const [location] = updated;
      if (!location) return false;
      await t.execute(sql`select pg_notify(${CHANNEL}, ${`token:${locationId}`})`);
      await inTx?.(t as unknown as Db, location);
      return true;
    });
  }

  async list(locationId?: number): Promise<GatewayStatusRow[]> {
    const rows = await queryRows<GatewayStatusRow>(
      this.db,
      sql`select g.id, g.location_id, l.name as location_name, g.gateway_id, g.name, g.hostname, g.version, g.interface_name,
                 g.implementation, (g.stream_id is not null and g.last_seen_at > now() - make_interval(secs => ${STALE_SECONDS})) as connected,
                 g.connected_at, g.disconnected_at, g.last_seen_at, g.acknowledged_revision::text, g.acknowledged_epoch,
                 s.revision::text as location_revision, s.revision_epoch, g.state, g.status_message, g.peer_count
            from gateways g
            join locations l on l.id = g.location_id
            join gateway_location_state s on s.location_id = g.location_id
           ${locationId === undefined ? sql`` : sql`where g.location_id = ${locationId}`}
           order by lower(l.name), g.location_id, lower(g.name), g.id`,
    );
    return rows.map((r) => ({
      ...r,
      connected_at: toDate(r.connected_at),
      disconnected_at: toDate(r.disconnected_at),
      last_seen_at: toDate(r.last_seen_at),
    }));
  }

  async locations(): Promise<{ id: number; name: string }[]> {
    return queryRows(this.db, sql`select id, name from locations order by lower(name), id`);
  }

  /**
   * Deletes the gateway and tells the replica holding its stream (on commit) to close it;
   * `inTx` runs in the same transaction with what was deleted (the event of the change).
   */
  async delete(locationId: number, id: number, inTx?: (t: Db, gone: DeletedGateway) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (t) => {
      const [gone] = await queryRows<DeletedGateway>(
        t as unknown as Db,
        sql`delete from gateways g using locations l
             where g.id = ${id} and g.location_id = ${locationId} and l.id = g.location_id
             returning g.id, g.gateway_id, g.name, g.hostname, g.version, g.stream_id, l.id as location_id, l.name as location_name`,
      );
      if (!gone) return false;
      await t.execute(sql`select pg_notify(${CHANNEL}, ${`gwdel:${id}`})`);
      await inTx?.(t as unknown as Db, gone);
      return true;
    });
  }
}
