import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';

/**
 * Traffic queries over peer_stats. Counters are cumulative per (device, gateway): the traffic of
 * an interval is the difference to the previous sample of the same pair, and a counter below its
 * previous value means the peer was re-created (counters restart at 0), so the sample itself is
 * the interval's traffic. The first sample of a pair with no earlier sample within LOOKBACK of
 * the window counts as 0 (nothing to compare with).
 */
const LOOKBACK = sql`interval '1 hour'`;

export interface SeriesRow {
  bucket: Date;
  device_id: number | null;
  upload: number;
  download: number;
}

export interface ActivityRow {
  device_id: number;
  location_id: number;
  location_name: string;
  kind: 'user' | 'network';
  name: string;
  user_id: number | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  latest_handshake: Date | null;
  endpoint: string | null;
  connected: boolean;
  /** Start of the latest connection (device_connections). */
  connected_at: Date | null;
}

const where = (locationId: number | undefined) => (locationId === undefined ? sql`` : sql`and s.location_id = ${locationId}`);

export class StatsRepo {
  constructor(private readonly db: Db) {}

  async locationExists(id: number): Promise<boolean> {
    return (await queryRows(this.db, sql`select 1 from locations where id = ${id}`)).length > 0;
  }

  /** Upload/download per bucket (and per device when `perDevice`), summed over gateways. */
  async series(locationId: number | undefined, from: Date, bucketSeconds: number, perDevice: boolean): Promise<SeriesRow[]> {
    const rows = await queryRows<{ bucket: string | Date; device_id: number | null; upload: string; download: string }>(
      this.db,
      sql`with s as (
            select s.location_id, s.device_id, s.collected_at, s.upload, s.download,
                   lag(s.upload) over w as prev_up, lag(s.download) over w as prev_down
              from peer_stats s
             where s.collected_at >= ${from.toISOString()}::timestamptz - ${LOOKBACK} ${where(locationId)}
            window w as (partition by s.location_id, s.device_id, s.gateway_id order by s.collected_at)
          ), d as (
            select device_id, collected_at,
                   case when prev_up is null then 0 when upload >= prev_up then upload - prev_up else upload end as up,
                   case when prev_down is null then 0 when download >= prev_down then download - prev_down else download end as down
              from s where collected_at >= ${from.toISOString()}::timestamptz
          )
          select to_timestamp(floor(extract(epoch from collected_at) / ${bucketSeconds}) * ${bucketSeconds}) as bucket,
                 ${perDevice ? sql`device_id` : sql`null::int as device_id`},
                 sum(up)::text as upload, sum(down)::text as download
            from d
           group by 1, 2
           order by 1, 2`,
    );
    return rows.map((r) => ({
      bucket: new Date(r.bucket),
      device_id: r.device_id,
      upload: Number(r.upload),
      download: Number(r.download),
    }));
  }

  /**
   * Devices seen in the window (a handshake at or after `from`, or now connected), with their
   * last endpoint and handshake. Connected: latest handshake newer than the location's
   * `peer_disconnect_threshold`.
   */
  async activity(locationId: number | undefined, from: Date): Promise<ActivityRow[]> {
    const rows = await queryRows<ActivityRow & { latest_handshake: string | Date | null; connected_at: string | Date | null }>(
      this.db,
      sql`with last as (
            select distinct on (s.device_id, s.location_id) s.device_id, s.location_id, s.endpoint,
                   max(s.latest_handshake) over (partition by s.device_id, s.location_id) as latest_handshake
              from peer_stats s
              join locations l on l.id = s.location_id
             where s.collected_at >= least(${from.toISOString()}::timestamptz, now() - make_interval(secs => l.peer_disconnect_threshold))
                   ${where(locationId)}
             order by s.device_id, s.location_id, s.collected_at desc
          )
          select last.device_id, last.location_id, l.name as location_name, d.kind, d.name, d.user_id, u.username, u.first_name, u.last_name,
                 last.latest_handshake, last.endpoint, c.connected_at,
                 coalesce(last.latest_handshake > now() - make_interval(secs => l.peer_disconnect_threshold), false) as connected
            from last
            join devices d on d.id = last.device_id
            join locations l on l.id = last.location_id
            left join users u on u.id = d.user_id
            left join device_connections c on c.device_id = last.device_id and c.location_id = last.location_id
           where last.latest_handshake >= ${from.toISOString()}::timestamptz
              or last.latest_handshake > now() - make_interval(secs => l.peer_disconnect_threshold)
           order by lower(d.name), d.id`,
    );
    const date = (v: string | Date | null) => (v === null ? null : new Date(v));
    return rows.map((r) => ({ ...r, latest_handshake: date(r.latest_handshake), connected_at: date(r.connected_at) }));
  }

  /** Addresses of the devices, keyed `<device>:<location>`. */
  async ipsOf(deviceIds: number[]): Promise<Map<string, string[]>> {
    if (deviceIds.length === 0) return new Map();
    const rows = await queryRows<{ device_id: number; location_id: number; ips: string[] }>(
      this.db,
      sql`select device_id, location_id, array_agg(host(ip) order by ip) as ips from device_ips
           where device_id = any(${sql.param(deviceIds)}::int[]) group by device_id, location_id`,
    );
    return new Map(rows.map((r) => [`${r.device_id}:${r.location_id}`, r.ips]));
  }
}
