import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ControlRepo, type StatsRow } from '#src/gateway-control/control.repo.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation, newKey } from '#test/network-fixtures.js';

/** Spec §3 Device: public IP, last connected, last location and connection date, from gateway stats. */
describe('device connection data', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let warsaw: { id: number; name: string };
  let berlin: { id: number; name: string };
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    warsaw = await createLocation(t.app, admin, { name: 'Warsaw', address: ['10.91.0.1/24'], peer_disconnect_threshold: 300 });
    berlin = await createLocation(t.app, admin, { name: 'Berlin', address: ['10.92.0.1/24'], peer_disconnect_threshold: 300 });
  });
  afterAll(() => t.close());

  const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
  /** Stats as the gateway control plane stores them (one multi-row insert per flush). */
  const report = (rows: (Partial<StatsRow> & Pick<StatsRow, 'deviceId' | 'locationId'>)[]) =>
    new ControlRepo(t.database.db).insertStats(
      rows.map((r) => ({ gatewayId: 1, collectedAt: new Date(), upload: 10, download: 20, latestHandshake: null, endpoint: null, ...r })),
    );

  it('a device never seen is inactive and carries no connection data', async () => {
    const { device } = await addDevice(t.app, alice, 'alice');
    const body = (await get(`/api/v1/device/${device.id}`, alice)).json();
    expect(body.is_active).toBe(false);
    expect(body).not.toHaveProperty('last_connected_at');
    expect(body.networks.map((n: { is_active: boolean }) => n.is_active)).toEqual([false, false]);
  });

  it('fills public IP, last connected, last location and connection date per location and overall', async () => {
    const { device } = await addDevice(t.app, alice, 'alice');
    const recent = ago(30);
    const old = ago(3600);
    await report([
      { deviceId: device.id, locationId: warsaw.id, latestHandshake: old, endpoint: '198.51.100.4:40000' },
      { deviceId: device.id, locationId: berlin.id, latestHandshake: recent, endpoint: '[2001:db8::7]:51820' },
      // A second gateway of the location that never saw the peer does not hide the first.
      { deviceId: device.id, locationId: berlin.id, gatewayId: 2, latestHandshake: null, endpoint: null },
    ]);
    for (const body of [
      (await get(`/api/v1/device/${device.id}`, alice)).json(),
      (await get('/api/v1/device/user/alice', alice)).json()[0],
      (await get('/api/v1/device', admin)).json().items[0],
    ]) {
      expect(body).toMatchObject({
        is_active: true,
        last_connected_at: recent.toISOString(),
        last_connected_ip: '2001:db8::7',
        last_connected_location: 'Berlin',
        last_connected_location_id: berlin.id,
        connected_at: recent.toISOString(),
      });
      const byName = Object.fromEntries(body.networks.map((n: { network_name: string }) => [n.network_name, n]));
      expect(byName.Warsaw).toMatchObject({ is_active: false, last_connected_ip: '198.51.100.4', last_connected_at: old.toISOString() });
      expect(byName.Berlin).toMatchObject({ is_active: true, last_connected_ip: '2001:db8::7' });
    }
  });

  it('a connection lasts while handshakes come within the threshold; a longer gap starts a new one', async () => {
    const { device } = await addDevice(t.app, alice, 'alice');
    const first = ago(7200);
    const connectedAt = async () => (await get(`/api/v1/device/${device.id}`, alice)).json().connected_at;
    await report([{ deviceId: device.id, locationId: warsaw.id, latestHandshake: first, endpoint: '192.0.2.1:1' }]);
    await report([{ deviceId: device.id, locationId: warsaw.id, latestHandshake: ago(7080), endpoint: '192.0.2.1:1' }]);
    expect(await connectedAt()).toBe(first.toISOString());
    // An older handshake (another gateway, a late batch) changes nothing.
    await report([{ deviceId: device.id, locationId: warsaw.id, latestHandshake: ago(9000), endpoint: '192.0.2.99:1' }]);
    const before = (await get(`/api/v1/device/${device.id}`, alice)).json();
    expect(before).toMatchObject({ is_active: false, last_connected_ip: '192.0.2.1' });
    const reconnected = ago(10);
    await report([{ deviceId: device.id, locationId: warsaw.id, latestHandshake: reconnected, endpoint: '192.0.2.2:1' }]);
    expect((await get(`/api/v1/device/${device.id}`, alice)).json()).toMatchObject({
      is_active: true,
      connected_at: reconnected.toISOString(),
      last_connected_ip: '192.0.2.2',
    });
  });

  it('network devices show their status and last handshake; rows of deleted devices are ignored', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/device/network',
      headers: { cookie: admin },
      payload: { name: 'router', location_id: warsaw.id, wireguard_pubkey: newKey() },
    });
    const id = created.json().device.id as number;
    const seen = ago(60);
    await report([
      { deviceId: id, locationId: warsaw.id, latestHandshake: seen, endpoint: '203.0.113.9:51820' },
      { deviceId: 999_999, locationId: warsaw.id, latestHandshake: seen, endpoint: '203.0.113.10:51820' },
    ]);
    const [item] = (await get('/api/v1/device/network', admin)).json().items;
    expect(item).toMatchObject({ id, is_active: true, last_connected_ip: '203.0.113.9', last_connected_at: seen.toISOString() });
  });
});
