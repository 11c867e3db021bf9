import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { type LoadOptions, loadCompileInput } from '#src/modules/acl/compiler/load.repo.js';
import type { CompileDevice, CompileInput } from '#src/modules/acl/compiler/types.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { gatewayStreamEvent } from '#src/modules/gateways/gateway-events.js';

/** Database access of the gRPC control plane (the only file of gateway-control that touches SQL). */
export const GATEWAY_CHANNEL = 'palisade_gateway';

export interface LocationState {
  locationId: number;
  revision: bigint;
  epoch: string;
  logFloor: bigint;
}

export interface InterfaceRow {
  port: number;
  addresses: string[];
  privateKeyEnc: string;
  keepalive: number;
}

export interface PeerRow {
  publicKey: string;
  allowedIps: string[];
  /** Base64 preshared key (an MFA session's, opened by the feed); empty when the peer has none. */
  presharedKey: string;
  /** The sealed preshared key as stored (vpn_sessions), null when none. */
  presharedKeyEnc: string | null;
}

export interface ChangeRow {
  revision: bigint;
  kind: 'peer' | 'interface' | 'full' | 'fw_rule' | 'fw_member' | 'fw_full';
  key: string;
}

export interface HelloInfo {
  gatewayId: string;
  name: string;
  hostname: string;
  version: string;
  interfaceName: string;
  implementation: 'kernel' | 'userspace' | 'unknown';
}

export interface StatsRow {
  locationId: number;
  deviceId: number;
  gatewayId: number;
  collectedAt: Date;
  upload: number;
  download: number;
  latestHandshake: Date | null;
  endpoint: string | null;
}

/**
 * Peers of a location: devices holding addresses there, network devices or of active users; in an
 * MFA-protected location only devices with an active VPN session, with the session's preshared
 * key (docs/mfa.md). One row per address (most devices have one), grouped in JS: cheaper than
 * array_agg at 10,000 peers.
 */
const peersQuery = (locationId: number, keys?: string[]) => sql`
  select d.wireguard_pubkey as k, host(di.ip) || case when family(di.ip) = 4 then '/32' else '/128' end as ip,
         s.preshared_key_enc as psk
    from device_ips di
    join devices d on d.id = di.device_id
    join locations l on l.id = di.location_id
    left join users u on u.id = d.user_id
    left join vpn_sessions s on l.mfa_enabled and s.device_id = d.id and s.location_id = di.location_id
                            and s.started_at is not null and s.ended_at is null
   where di.location_id = ${locationId}
     and (d.kind = 'network' or u.is_active)
     and (not l.mfa_enabled or s.id is not null)
     ${keys ? sql`and d.wireguard_pubkey = any(${sql.param(keys)}::text[])` : sql``}
   order by d.id, di.ip`;

const toState = (r: { location_id: number; revision: string; revision_epoch: string; log_floor: string }): LocationState => ({
  locationId: r.location_id,
  revision: BigInt(r.revision),
  epoch: r.revision_epoch,
  logFloor: BigInt(r.log_floor),
});

export class ControlRepo {
  constructor(private readonly db: Db) {}

  /** Runs `fn` in one read-only REPEATABLE READ transaction: revision and content agree. */
  consistent<T>(fn: (repo: ControlRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((t) => fn(new ControlRepo(t as unknown as Db)), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    });
  }

  async locationForToken(tokenHash: string): Promise<number | undefined> {
    const [row] = await queryRows<{ location_id: number }>(
      this.db,
      sql`select location_id from gateway_location_state where token_hash = ${tokenHash}`,
    );
    return row?.location_id;
  }

  async tokenHashes(locationIds: number[]): Promise<Map<number, string | null>> {
    const rows = await queryRows<{ location_id: number; token_hash: string | null }>(
      this.db,
      sql`select location_id, token_hash from gateway_location_state where location_id = any(${sql.param(locationIds)}::int[])`,
    );
    return new Map(rows.map((r) => [r.location_id, r.token_hash]));
  }

  async state(locationId: number): Promise<LocationState | undefined> {
    const [row] = await queryRows<Parameters<typeof toState>[0]>(
      this.db,
      sql`select location_id, revision::text, revision_epoch, log_floor::text from gateway_location_state where location_id = ${locationId}`,
    );
    return row ? toState(row) : undefined;
  }

  async interfaceOf(locationId: number): Promise<InterfaceRow | undefined> {
    const [row] = await queryRows<{ port: number; addresses: string[]; private_key_enc: string; keepalive_interval: number }>(
      this.db,
      sql`select port, addresses, private_key_enc, keepalive_interval from locations where id = ${locationId}`,
    );
    return row && { port: row.port, addresses: row.addresses, privateKeyEnc: row.private_key_enc, keepalive: row.keepalive_interval };
  }

  async peers(locationId: number, keys?: string[]): Promise<PeerRow[]> {
    if (keys?.length === 0) return [];
    const rows = await queryRows<{ k: string; ip: string; psk: string | null }>(this.db, peersQuery(locationId, keys));
    const out: PeerRow[] = [];
    for (const r of rows) {
      const last = out.at(-1);
      if (last?.publicKey === r.k) last.allowedIps.push(r.ip);
      else out.push({ publicKey: r.k, allowedIps: [r.ip], presharedKey: '', presharedKeyEnc: r.psk });
    }
    return out;
  }

  async changes(locationId: number, after: bigint, through: bigint): Promise<ChangeRow[]> {
    const rows = await queryRows<{ revision: string; kind: ChangeRow['kind']; key: string }>(
      this.db,
      sql`select revision::text, kind, key from gateway_changes
           where location_id = ${locationId} and revision > ${after.toString()}::bigint and revision <= ${through.toString()}::bigint
           order by revision, kind, key`,
    );
    return rows.map((r) => ({ revision: BigInt(r.revision), kind: r.kind, key: r.key }));
  }

  /** The ACL compiler's input for the location (docs/acl.md); undefined when the location is gone. */
  aclInput(locationId: number, now: Date, options?: LoadOptions): Promise<CompileInput | undefined> {
    return loadCompileInput(this.db, locationId, now, options);
  }

  /** Addresses in the location of these devices (absent: none there). */
  async memberAddresses(locationId: number, deviceIds: number[]): Promise<CompileDevice[]> {
    if (deviceIds.length === 0) return [];
    const rows = await queryRows<{ device_id: number; ips: string[] }>(
      this.db,
      sql`select device_id, array_agg(host(ip) order by ip) as ips from device_ips
           where location_id = ${locationId} and device_id = any(${sql.param(deviceIds)}::int[])
           group by device_id order by device_id`,
    );
    return rows.map((r) => ({ id: r.device_id, addresses: r.ips }));
  }

  async deviceIdsByKey(locationId: number, keys: string[]): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const rows = await queryRows<{ id: number; wireguard_pubkey: string }>(
      this.db,
      sql`select d.id, d.wireguard_pubkey from devices d
           where d.wireguard_pubkey = any(${sql.param(keys)}::text[])
             and exists (select 1 from device_ips di where di.device_id = d.id and di.location_id = ${locationId})`,
    );
    return new Map(rows.map((r) => [r.wireguard_pubkey, r.id]));
  }

  // --- gateways ---------------------------------------------------------------------------------

  /**
   * Records the hello of a new stream; the stream now owns the gateway row. In the same
   * transaction: `gateway.connected`, preceded by `gateway.disconnected` for the stream it takes
   * over when that one never recorded its end (replaced on another replica, or its process died),
   * so the activity log holds one connected/disconnected pair per stream.
   */
  async connectGateway(locationId: number, hello: HelloInfo, streamId: string, peer?: string): Promise<number> {
    return this.db.transaction(async (raw) => {
      const t = raw as unknown as Db;
      const [previous] = await queryRows<{ stream_id: string | null; name: string; hostname: string; version: string }>(
        t,
        sql`select stream_id, name, hostname, version from gateways
             where location_id = ${locationId} and gateway_id = ${hello.gatewayId} for update`,
      );
      const id = await new ControlRepo(t).#upsertGateway(locationId, hello, streamId);
      const [location] = await queryRows<{ name: string }>(t, sql`select name from locations where id = ${locationId}`);
      const where = { id: locationId, name: location?.name ?? '' };
      const events: DomainEvent[] = [];
      // The stream taken over (as its hello described the gateway) had its own peer address, unknown here.
      if (previous?.stream_id) {
        const before = { id, gatewayId: hello.gatewayId, name: previous.name, hostname: previous.hostname, version: previous.version };
        events.push(gatewayStreamEvent('gateway.disconnected', before, where, undefined, { reason: 'superseded' }));
      }
      events.push(gatewayStreamEvent('gateway.connected', { id, ...hello }, where, peer));
      await recordEvent(t, ...events);
      return id;
    });
  }

  async #upsertGateway(locationId: number, hello: HelloInfo, streamId: string): Promise<number> {
    const [row] = await queryRows<{ id: number }>(
      this.db,
      sql`insert into gateways (location_id, gateway_id, name, hostname, version, interface_name, implementation,
                                stream_id, connected_at, disconnected_at, last_seen_at)
          values (${locationId}, ${hello.gatewayId}, ${hello.name}, ${hello.hostname}, ${hello.version}, ${hello.interfaceName},
                  ${hello.implementation}, ${streamId}, now(), null, now())
          on conflict (location_id, gateway_id) do update set
            name = excluded.name, hostname = excluded.hostname, version = excluded.version,
            interface_name = excluded.interface_name, implementation = excluded.implementation,
            stream_id = excluded.stream_id, connected_at = now(), disconnected_at = null, last_seen_at = now(),
            state = 'unknown', status_message = null
          returning id`,
    );
    if (!row) throw new Error('gateway upsert returned no row');
    return row.id;
  }

  /** Cumulative ack: only moves forward within an epoch; a new epoch replaces the old. */
  async acknowledge(id: number, epoch: string, revision: bigint): Promise<void> {
    await this.db.execute(
      sql`update gateways set acknowledged_revision = ${revision.toString()}::bigint, acknowledged_epoch = ${epoch}, last_seen_at = now()
           where id = ${id} and (acknowledged_epoch <> ${epoch} or acknowledged_revision < ${revision.toString()}::bigint)`,
    );
  }

  /** A status report; an unspecified implementation (an older agent) keeps what the hello said. */
  async reportStatus(id: number, state: string, message: string | null, peerCount: number, implementation: string): Promise<void> {
    await this.db.execute(
      sql`update gateways set state = ${state}, status_message = ${message}, peer_count = ${peerCount}, last_seen_at = now(),
        implementation = case when ${implementation} = 'unknown' then implementation else ${implementation} end
        where id = ${id}`,
    );
  }

  /**
   * Marks the gateway disconnected when this stream still owns it, with `gateway.disconnected`
   * in the same transaction (a stream replaced by a newer one left that to the newer one).
   */
  async disconnectGateway(id: number, streamId: string, hello: HelloInfo, peer?: string, reason?: string): Promise<void> {
    await this.db.transaction(async (raw) => {
      const t = raw as unknown as Db;
      const [row] = await queryRows<{ location_id: number; location_name: string }>(
        t,
        sql`update gateways g set stream_id = null, disconnected_at = now(), last_seen_at = now()
              from locations l
             where g.id = ${id} and g.stream_id = ${streamId} and l.id = g.location_id
             returning l.id as location_id, l.name as location_name`,
      );
      if (!row) return;
      const where = { id: row.location_id, name: row.location_name };
      await recordEvent(t, gatewayStreamEvent('gateway.disconnected', { id, ...hello }, where, peer, reason ? { reason } : {}));
    });
  }

  async heartbeat(streamIds: string[]): Promise<void> {
    if (streamIds.length === 0) return;
    await this.db.execute(sql`update gateways set last_seen_at = now() where stream_id = any(${sql.param(streamIds)}::text[])`);
  }

  async notify(payload: string): Promise<void> {
    await this.db.execute(sql`select pg_notify(${GATEWAY_CHANNEL}, ${payload})`);
  }

  // --- stats and maintenance --------------------------------------------------------------------

  /** One multi-row insert (unnest of column arrays: one parameter per column, any row count). */
  async insertStats(rows: StatsRow[]): Promise<void> {
    if (rows.length === 0) return;
    const col = <T>(f: (r: StatsRow) => T) => rows.map(f);
    await this.db.execute(sql`
      insert into peer_stats (location_id, device_id, gateway_id, collected_at, upload, download, latest_handshake, endpoint)
      select * from unnest(${sql.param(col((r) => r.locationId))}::int[], ${sql.param(col((r) => r.deviceId))}::int[], ${sql.param(col((r) => r.gatewayId))}::int[],
                           ${sql.param(col((r) => r.collectedAt.toISOString()))}::timestamptz[], ${sql.param(col((r) => String(r.upload)))}::bigint[],
                           ${sql.param(col((r) => String(r.download)))}::bigint[], ${sql.param(col((r) => r.latestHandshake?.toISOString() ?? null))}::timestamptz[],
                           ${sql.param(col((r) => r.endpoint))}::text[])`);
  }

  /**
   * Deletes stats older than the retention and change-log entries older than `logHours`
   * (raising each location's `log_floor`), under a transaction-level advisory lock so that one
   * replica does it. Returns false when another replica holds the lock.
   */
  async purge(retentionDays: number, logHours: number, lockId: number): Promise<boolean> {
    return this.db.transaction(async (t) => {
      const [lock] = await queryRows<{ ok: boolean }>(t as unknown as Db, sql`select pg_try_advisory_xact_lock(${lockId}) as ok`);
      if (!lock?.ok) return false;
      await t.execute(sql`delete from peer_stats where collected_at < now() - make_interval(days => ${retentionDays})`);
      await t.execute(sql`
        with gone as (delete from gateway_changes where created_at < now() - make_interval(hours => ${logHours}) returning location_id, revision)
        update gateway_location_state s set log_floor = greatest(s.log_floor, m.top)
          from (select location_id, max(revision) as top from gone group by location_id) m
         where s.location_id = m.location_id`);
      return true;
    });
  }
}
