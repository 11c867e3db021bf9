import type { Device, NetworkDevice } from '@palisade/contracts';
import { hostOfEndpoint } from '#src/lib/endpoint.js';
import type { ConnectionRow, DeviceIpRow, DeviceRow, UserDevicePageRow } from './devices.repo.js';

interface Connection {
  last_connected_at?: string;
  last_connected_ip?: string;
  connected_at?: string;
  is_active: boolean;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Connection fields of one location's row; never seen: only `is_active: false`. */
function connectionOf(row: ConnectionRow | undefined): Connection {
  if (!row) return { is_active: false };
  return {
    last_connected_at: iso(row.latest_handshake),
    ...(row.endpoint ? { last_connected_ip: hostOfEndpoint(row.endpoint) } : {}),
    connected_at: iso(row.connected_at),
    is_active: row.is_active,
  };
}

/** Overall: the most recent connection of any location, active when any location is. */
function latestConnection(rows: ConnectionRow[]): Connection & { last_connected_location?: string; last_connected_location_id?: number } {
  const latest = rows.reduce<ConnectionRow | undefined>(
    (best, r) => (best === undefined || new Date(r.latest_handshake) > new Date(best.latest_handshake) ? r : best),
    undefined,
  );
  if (!latest) return { is_active: false };
  return {
    ...connectionOf(latest),
    is_active: rows.some((r) => r.is_active),
    last_connected_location: latest.location_name,
    last_connected_location_id: latest.location_id,
  };
}

function userDevice(
  base: Omit<Device, 'networks' | 'is_active'>,
  ips: { locationId: number; locationName: string; locationMfa: boolean; ip: string }[],
  connections: ConnectionRow[],
): Device {
  const byLocation = new Map<number, { name: string; mfa: boolean; ips: string[] }>();
  for (const r of ips) {
    const entry = byLocation.get(r.locationId) ?? { name: r.locationName, mfa: r.locationMfa, ips: [] };
    entry.ips.push(r.ip);
    byLocation.set(r.locationId, entry);
  }
  return {
    ...base,
    networks: [...byLocation].map(([id, e]) => ({
      network_id: id,
      network_name: e.name,
      mfa_enabled: e.mfa,
      device_wireguard_ips: e.ips,
      ...connectionOf(connections.find((c) => c.location_id === id)),
    })),
    ...latestConnection(connections),
  };
}

export function toDevice(row: DeviceRow, ips: DeviceIpRow[], connections: ConnectionRow[], username?: string): Device {
  const base = {
    id: row.id,
    name: row.name,
    wireguard_pubkey: row.wireguardPubkey,
    user_id: row.userId ?? 0,
    ...(username ? { username } : {}),
    created: row.createdAt.toISOString(),
  };
  return userDevice(
    base,
    ips.filter((r) => r.deviceId === row.id),
    connections,
  );
}

export function pageRowToDevice(row: UserDevicePageRow): Device {
  const base = {
    id: row.id,
    name: row.name,
    wireguard_pubkey: row.wireguard_pubkey,
    user_id: row.user_id,
    ...(row.username ? { username: row.username } : {}),
    created: iso(row.created_at),
  };
  const ips = row.ips.map((r) => ({ locationId: r.location_id, locationName: r.location_name, locationMfa: r.location_mfa, ip: r.ip }));
  return userDevice(base, ips, row.connections);
}

export function toNetworkDevice(row: DeviceRow, ips: DeviceIpRow[], connections: ConnectionRow[]): NetworkDevice {
  const mine = ips.filter((r) => r.deviceId === row.id);
  return {
    id: row.id,
    name: row.name,
    location_id: row.locationId ?? 0,
    location_name: mine[0]?.locationName ?? '',
    assigned_ips: mine.map((r) => r.ip),
    ...(row.description ? { description: row.description } : {}),
    added_by: row.addedBy ?? '',
    added_date: row.createdAt.toISOString(),
    wireguard_pubkey: row.wireguardPubkey,
    ...connectionOf(connections.find((c) => c.location_id === row.locationId)),
  };
}
