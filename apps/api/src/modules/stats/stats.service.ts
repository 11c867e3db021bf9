import type { DeviceStats, NetworkStats, NetworkUsersStats, TransferPoint, UserStats } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { hostOfEndpoint } from '#src/lib/endpoint.js';
import { networkNotFound } from '#src/modules/networks/networks.service.js';
import { type ActivityRow, type SeriesRow, StatsRepo } from './stats.repo.js';

/**
 * Location overview and connected-users figures (spec §2, §3 Traffic stats). `from` is a UTC
 * ISO timestamp (default: one hour ago); series are bucketed to at most ~120 points.
 */
const MAX_POINTS = 120;

export function bucketSecondsFor(from: Date, now: Date): number {
  const window = Math.max(0, (now.getTime() - from.getTime()) / 1000);
  return Math.max(60, Math.ceil(window / MAX_POINTS / 60) * 60);
}

const point = (r: SeriesRow): TransferPoint => ({ collected_at: r.bucket.toISOString(), upload: r.upload, download: r.download });

export class StatsService {
  readonly #repo: StatsRepo;

  constructor(db: Db) {
    this.#repo = new StatsRepo(db);
  }

  #window(from: string | undefined): { from: Date; bucket: number } {
    const now = new Date();
    const start = from === undefined ? new Date(now.getTime() - 3600_000) : new Date(from);
    return { from: start, bucket: bucketSecondsFor(start, now) };
  }

  async #requireLocation(id: number): Promise<void> {
    if (!(await this.#repo.locationExists(id))) throw networkNotFound(id);
  }

  async network(locationId: number | undefined, fromText: string | undefined): Promise<NetworkStats> {
    if (locationId !== undefined) await this.#requireLocation(locationId);
    const { from, bucket } = this.#window(fromText);
    const [series, activity] = await Promise.all([
      this.#repo.series(locationId, from, bucket, false),
      this.#repo.activity(locationId, from),
    ]);
    const active = activity.filter((a) => a.latest_handshake !== null && a.latest_handshake >= from);
    const current = activity.filter((a) => a.connected);
    const count = (rows: ActivityRow[], kind: 'user' | 'network') =>
      new Set(rows.filter((r) => r.kind === kind).map((r) => r.device_id)).size;
    const users = (rows: ActivityRow[]) => new Set(rows.filter((r) => r.user_id !== null).map((r) => r.user_id)).size;
    return {
      from: from.toISOString(),
      bucket_seconds: bucket,
      active_users: users(active),
      active_user_devices: count(active, 'user'),
      active_network_devices: count(active, 'network'),
      current_active_users: users(current),
      current_active_user_devices: count(current, 'user'),
      current_active_network_devices: count(current, 'network'),
      upload: series.reduce((n, r) => n + r.upload, 0),
      download: series.reduce((n, r) => n + r.download, 0),
      peak_upload: series.reduce((n, r) => Math.max(n, r.upload), 0),
      peak_download: series.reduce((n, r) => Math.max(n, r.download), 0),
      transfer_series: series.map(point),
    };
  }

  /** Devices active since `from` by user: one location, or every location (`locationId` undefined). */
  async users(locationId: number | undefined, fromText: string | undefined): Promise<NetworkUsersStats> {
    if (locationId !== undefined) await this.#requireLocation(locationId);
    const { from, bucket } = this.#window(fromText);
    const [series, activity] = await Promise.all([
      this.#repo.series(locationId, from, bucket, true),
      this.#repo.activity(locationId, from),
    ]);
    const ips = await this.#repo.ipsOf([...new Set(activity.map((a) => a.device_id))]);
    // Series are per device over the locations of the query; with every location, a device seen
    // in two locations shows its traffic under each (the series do not split by location).
    const byDevice = new Map<number, SeriesRow[]>();
    for (const r of series) if (r.device_id !== null) byDevice.set(r.device_id, [...(byDevice.get(r.device_id) ?? []), r]);
    const device = (a: ActivityRow): DeviceStats => {
      const rows = byDevice.get(a.device_id) ?? [];
      return {
        id: a.device_id,
        name: a.name,
        location_id: a.location_id,
        location_name: a.location_name,
        assigned_ips: ips.get(`${a.device_id}:${a.location_id}`) ?? [],
        ...(a.endpoint ? { endpoint: a.endpoint, public_ip: hostOfEndpoint(a.endpoint) } : {}),
        connected: a.connected,
        ...(a.latest_handshake ? { latest_handshake: a.latest_handshake.toISOString() } : {}),
        ...(a.connected_at ? { connected_at: a.connected_at.toISOString() } : {}),
        upload: rows.reduce((n, r) => n + r.upload, 0),
        download: rows.reduce((n, r) => n + r.download, 0),
        stats: rows.map(point),
      };
    };
    const users = new Map<number, UserStats>();
    for (const a of activity) {
      if (a.kind !== 'user' || a.user_id === null) continue;
      const entry = users.get(a.user_id) ?? {
        user: { id: a.user_id, username: a.username ?? '', first_name: a.first_name ?? '', last_name: a.last_name ?? '' },
        upload: 0,
        download: 0,
        devices: [],
      };
      const d = device(a);
      entry.devices.push(d);
      entry.upload += d.upload;
      entry.download += d.download;
      users.set(a.user_id, entry);
    }
    return {
      from: from.toISOString(),
      bucket_seconds: bucket,
      users: [...users.values()].sort((x, y) => x.user.username.localeCompare(y.user.username)),
      network_devices: activity.filter((a) => a.kind === 'network').map(device),
    };
  }
}
