import type { DeviceStats, NetworkUsersStats } from '@palisade/contracts';

/** One line of the Connected users screen: a user's device in a location, or a network device. */
export interface ConnectedRow {
  key: string;
  /** Full name (or username) of the owner; undefined for a network device. */
  owner: string | undefined;
  username: string | undefined;
  device: DeviceStats;
}

/** Users (sorted by the API) with their devices, then network devices; filtered by a search text. */
export function connectedRows(stats: NetworkUsersStats, search: string): ConnectedRow[] {
  const rows: ConnectedRow[] = [
    ...stats.users.flatMap((u) =>
      u.devices.map((d) => ({
        key: `u-${d.id}-${d.location_id}`,
        owner: `${u.user.first_name} ${u.user.last_name}`.trim() || u.user.username,
        username: u.user.username,
        device: d,
      })),
    ),
    ...stats.network_devices.map((d) => ({ key: `n-${d.id}-${d.location_id}`, owner: undefined, username: undefined, device: d })),
  ];
  const needle = search.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter((r) =>
    [r.owner ?? '', r.username ?? '', r.device.name, r.device.location_name, r.device.public_ip ?? '', ...r.device.assigned_ips].some((v) =>
      v.toLowerCase().includes(needle),
    ),
  );
}
