import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ControlRepo, type StatsRow } from '#src/gateway-control/control.repo.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation, newKey } from '#test/network-fixtures.js';

/** Spec §2 Connected users overview: every location's active users and network devices. */
describe('connected users', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let warsaw: { id: number };
  let berlin: { id: number };
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    alice = await t.createUser('alice', { first_name: 'Alice', last_name: 'Nowak' });
    warsaw = await createLocation(t.app, admin, { name: 'Warsaw', address: ['10.93.0.1/24'] });
    berlin = await createLocation(t.app, admin, { name: 'Berlin', address: ['10.94.0.1/24'] });
  });
  afterAll(() => t.close());

  const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
  const report = (rows: (Partial<StatsRow> & Pick<StatsRow, 'deviceId' | 'locationId'>)[]) =>
    new ControlRepo(t.database.db).insertStats(
      rows.map((r) => ({ gatewayId: 1, collectedAt: new Date(), upload: 0, download: 0, latestHandshake: null, endpoint: null, ...r })),
    );

  it('lists users and network devices active in any location, with location, public IP, connection start and traffic', async () => {
    const { device } = await addDevice(t.app, alice, 'alice', 'laptop');
    await addDevice(t.app, alice, 'alice', 'idle-phone');
    const router = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/device/network',
        headers: { cookie: admin },
        payload: { name: 'router', location_id: berlin.id, wireguard_pubkey: newKey() },
      })
    ).json().device;
    const start = ago(250); // handshakes 230 s apart: within the 300 s threshold, one connection
    await report([
      {
        deviceId: device.id,
        locationId: warsaw.id,
        latestHandshake: start,
        endpoint: '198.51.100.1:4000',
        collectedAt: ago(300),
        upload: 100,
        download: 1000,
      },
    ]);
    await report([
      { deviceId: device.id, locationId: warsaw.id, latestHandshake: ago(20), endpoint: '198.51.100.1:4000', upload: 150, download: 1600 },
      { deviceId: router.id, locationId: berlin.id, latestHandshake: ago(5), endpoint: '203.0.113.2:51820', upload: 7, download: 9 },
    ]);
    const res = await get('/api/v1/network/stats/users', admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.users).toHaveLength(1);
    expect(body.users[0]).toMatchObject({ user: { username: 'alice', first_name: 'Alice' }, upload: 50, download: 600 });
    expect(body.users[0].devices).toEqual([
      expect.objectContaining({
        name: 'laptop',
        location_id: warsaw.id,
        location_name: 'Warsaw',
        assigned_ips: ['10.93.0.2'],
        public_ip: '198.51.100.1',
        connected: true,
        connected_at: start.toISOString(),
      }),
    ]);
    expect(body.network_devices).toEqual([
      expect.objectContaining({ name: 'router', location_name: 'Berlin', public_ip: '203.0.113.2', connected: true }),
    ]);
    // One location's view keeps to that location.
    const berlinOnly = (await get(`/api/v1/network/${berlin.id}/stats/users`, admin)).json();
    expect(berlinOnly.users).toEqual([]);
    expect(berlinOnly.network_devices).toHaveLength(1);
  });

  it('is for admins only and validates the window', async () => {
    expect((await get('/api/v1/network/stats/users', alice)).statusCode).toBe(403);
    const bad = await get('/api/v1/network/stats/users?from=yesterday', admin);
    expect(bad.statusCode).toBe(400);
    expect((await get(`/api/v1/network/stats/users?from=${encodeURIComponent(ago(3600 * 24).toISOString())}`, admin)).statusCode).toBe(200);
  });
});
