import type { DeviceStats, NetworkUsersStats } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { connectedRows } from './connected-rows';

const device = (id: number, name: string, location: string, extra: Partial<DeviceStats> = {}): DeviceStats => ({
  id,
  name,
  location_id: location === 'Warsaw' ? 1 : 2,
  location_name: location,
  assigned_ips: [`10.0.0.${id}`],
  connected: true,
  upload: 0,
  download: 0,
  stats: [],
  ...extra,
});

const stats: NetworkUsersStats = {
  from: '2026-11-24T07:00:00Z',
  bucket_seconds: 60,
  users: [
    {
      user: { id: 1, username: 'anna', first_name: 'Anna', last_name: 'Nowak' },
      upload: 0,
      download: 0,
      devices: [device(1, 'laptop', 'Warsaw', { public_ip: '198.51.100.4' }), device(1, 'laptop', 'Berlin')],
    },
  ],
  network_devices: [device(9, 'printer', 'Berlin')],
};

describe('connectedRows', () => {
  it('lists every user device per location, then network devices, with distinct keys', () => {
    const rows = connectedRows(stats, '');
    expect(rows.map((r) => [r.owner, r.device.name, r.device.location_name])).toEqual([
      ['Anna Nowak', 'laptop', 'Warsaw'],
      ['Anna Nowak', 'laptop', 'Berlin'],
      [undefined, 'printer', 'Berlin'],
    ]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(3);
  });

  it('searches user, device, location and addresses', () => {
    expect(connectedRows(stats, 'berlin')).toHaveLength(2);
    expect(connectedRows(stats, 'ANNA')).toHaveLength(2);
    expect(connectedRows(stats, '198.51')).toHaveLength(1);
    expect(connectedRows(stats, '10.0.0.9')).toHaveLength(1);
    expect(connectedRows(stats, 'nobody')).toEqual([]);
  });
});
