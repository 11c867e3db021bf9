import type { Device, NetworkDevice } from '@palisade/contracts';
import type { DeviceIpRow, DeviceRow, UserDevicePageRow } from './devices.repo.js';

export function toDevice(row: DeviceRow, ips: DeviceIpRow[], username?: string): Device {
  const mine = ips.filter((r) => r.deviceId === row.id);
  const byLocation = new Map<number, { name: string; ips: string[] }>();
  for (const r of mine) {
    const entry = byLocation.get(r.locationId) ?? { name: r.locationName, ips: [] };
    entry.ips.push(r.ip);
    byLocation.set(r.locationId, entry);
  }
  return {
    id: row.id,
    name: row.name,
    wireguard_pubkey: row.wireguardPubkey,
    user_id: row.userId ?? 0,
    ...(username ? { username } : {}),
    created: row.createdAt.toISOString(),
    networks: [...byLocation].map(([id, e]) => ({ network_id: id, network_name: e.name, device_wireguard_ips: e.ips, is_active: false })),
  };
}

export function pageRowToDevice(row: UserDevicePageRow): Device {
  const byLocation = new Map<number, { name: string; ips: string[] }>();
  for (const r of row.ips) {
    const entry = byLocation.get(r.location_id) ?? { name: r.location_name, ips: [] };
    entry.ips.push(r.ip);
    byLocation.set(r.location_id, entry);
  }
  return {
    id: row.id,
    name: row.name,
    wireguard_pubkey: row.wireguard_pubkey,
    user_id: row.user_id,
    ...(row.username ? { username: row.username } : {}),
    created: new Date(row.created_at).toISOString(),
    networks: [...byLocation].map(([id, e]) => ({ network_id: id, network_name: e.name, device_wireguard_ips: e.ips, is_active: false })),
  };
}

export function toNetworkDevice(row: DeviceRow, ips: DeviceIpRow[]): NetworkDevice {
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
  };
}
