import { generateKeyPair } from '@palisade/wireguard';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';

const server = generateKeyPair();
const peers = Array.from({ length: 3 }, () => generateKeyPair());

const CONFIG = `[Interface]
PrivateKey = ${server.privateKey}
Address = 10.200.0.1/24
ListenPort = 51999
PostUp = iptables -A FORWARD -i %i -j ACCEPT

[Peer]
PublicKey = ${peers[0]?.publicKey}
AllowedIPs = 10.200.0.10/32

[Peer]
PublicKey = ${peers[1]?.publicKey}
AllowedIPs = 10.200.0.11/32

[Peer]
PublicKey = ${peers[2]?.publicKey}
AllowedIPs = 10.200.0.12/32, 192.168.50.0/24
`;

describe('POST /network/import and /network/{id}/devices', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: admin }, payload: payload as object });

  it('creates the location from the server config and returns its peers; mapping keeps their IPs', async () => {
    const res = await post('/api/v1/network/import', {
      name: 'Legacy',
      endpoint: 'legacy.example.com',
      config: CONFIG,
      allowed_groups: [],
    });
    expect(res.statusCode).toBe(201);
    const { network, devices } = res.json();
    expect(network).toMatchObject({
      name: 'Legacy',
      address: ['10.200.0.1/24'],
      port: 51999,
      pubkey: server.publicKey,
      endpoint: 'legacy.example.com',
    });
    expect(devices.map((d: { wireguard_ips: string[] }) => d.wireguard_ips)).toEqual([['10.200.0.10'], ['10.200.0.11'], ['10.200.0.12']]);

    await t.createUser('dave');
    const users = (await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: { cookie: admin } })).json().items as {
      id: number;
      username: string;
    }[];
    const dave = users.find((u) => u.username === 'dave');
    const mapped = await post(`/api/v1/network/${network.id}/devices`, {
      devices: devices.map((d: { wireguard_pubkey: string; wireguard_ips: string[] }, i: number) => ({
        name: `peer-${i}`,
        wireguard_pubkey: d.wireguard_pubkey,
        wireguard_ips: d.wireguard_ips,
        user_id: dave?.id,
      })),
    });
    expect(mapped.statusCode).toBe(204);
    const daveDevices = (await t.app.inject({ method: 'GET', url: '/api/v1/device/user/dave', headers: { cookie: admin } })).json();
    expect(
      daveDevices.map((d: { networks: { device_wireguard_ips: string[] }[] }) => d.networks[0]?.device_wireguard_ips[0]).sort(),
    ).toEqual(['10.200.0.10', '10.200.0.11', '10.200.0.12']);
  });

  it('a bad file answers 400 naming the line and reason, and creates nothing', async () => {
    const broken = CONFIG.replace('ListenPort = 51999', 'ListenPort = 99999');
    const res = await post('/api/v1/network/import', { name: 'Broken', endpoint: 'x.example.com', config: broken, allowed_groups: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'network.import_invalid', detail: 'line 4: ListenPort must be between 0 and 65535' });
    expect(res.json().errors[0].params).toEqual({ line: 4 });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/network', headers: { cookie: admin } })).json()).toEqual([]);
  });

  it('an address already in use fails the mapping as a whole', async () => {
    const { network, devices } = (
      await post('/api/v1/network/import', { name: 'L', endpoint: 'l.example.com', config: CONFIG, allowed_groups: [] })
    ).json();
    const adminId = (await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie: admin } })).json().id;
    const res = await post(`/api/v1/network/${network.id}/devices`, {
      devices: [
        { name: 'a', wireguard_pubkey: devices[0].wireguard_pubkey, wireguard_ips: ['10.200.0.10'], user_id: adminId },
        { name: 'b', wireguard_pubkey: devices[1].wireguard_pubkey, wireguard_ips: ['10.200.0.10'], user_id: adminId },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({
      path: 'devices.1.wireguard_ips',
      code: 'network.ip_in_use',
      params: { ip: '10.200.0.10', device: 'a' },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/device/user/admin', headers: { cookie: admin } })).json()).toEqual([]);
  });

  it('peers whose key matches an existing device keep their addresses', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/device/admin',
      headers: { cookie: admin },
      payload: { name: 'existing', wireguard_pubkey: peers[1]?.publicKey },
    });
    const { devices } = (
      await post('/api/v1/network/import', { name: 'L2', endpoint: 'l.example.com', config: CONFIG, allowed_groups: [] })
    ).json();
    expect(devices[1]).toMatchObject({ name: 'existing', device_id: expect.any(Number) });
    const mine = (await t.app.inject({ method: 'GET', url: '/api/v1/device/user/admin', headers: { cookie: admin } })).json();
    expect(mine[0].networks[0].device_wireguard_ips).toEqual(['10.200.0.11']);
  });

  it('an abandoned map step resumes: peers stay pending with the location until mapped', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: admin } });
    const imported = await post('/api/v1/network/import', {
      name: 'Resume',
      endpoint: 'r.example.com',
      config: CONFIG,
      allowed_groups: [],
    });
    expect(imported.statusCode).toBe(201);
    const { network } = imported.json();

    // The wizard is abandoned here. The location says how many peers wait, and lists them.
    expect((await get(`/api/v1/network/${network.id}`)).json().pending_peers).toBe(3);
    expect((await get('/api/v1/network')).json()[0].pending_peers).toBe(3);
    const pending = await get(`/api/v1/network/${network.id}/devices`);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual([
      { wireguard_pubkey: peers[0]?.publicKey, wireguard_ips: ['10.200.0.10'] },
      { wireguard_pubkey: peers[1]?.publicKey, wireguard_ips: ['10.200.0.11'] },
      { wireguard_pubkey: peers[2]?.publicKey, wireguard_ips: ['10.200.0.12'] },
    ]);

    // Importing the same file again points to the unfinished location instead of "name taken".
    const again = await post('/api/v1/network/import', { name: 'resume', endpoint: 'r.example.com', config: CONFIG, allowed_groups: [] });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'network.import_pending' });
    expect(again.json().errors[0]).toMatchObject({
      path: 'name',
      code: 'network.import_pending',
      params: { location_id: network.id, count: 3 },
    });

    // Resume: map the pending peers (a failing submit maps none and keeps all pending).
    const adminId = (await get('/api/v1/me')).json().id;
    const body = (ips: string[]) => ({
      devices: pending.json().map((p: { wireguard_pubkey: string }, i: number) => ({
        name: `peer-${i}`,
        wireguard_pubkey: p.wireguard_pubkey,
        wireguard_ips: [ips[i]],
        user_id: adminId,
      })),
    });
    const bad = await post(`/api/v1/network/${network.id}/devices`, body(['10.200.0.10', '10.200.0.11', '10.200.0.11']));
    expect(bad.statusCode).toBe(400);
    expect((await get(`/api/v1/network/${network.id}/devices`)).json()).toHaveLength(3);
    const mapped = await post(`/api/v1/network/${network.id}/devices`, body(['10.200.0.10', '10.200.0.11', '10.200.0.12']));
    expect(mapped.statusCode).toBe(204);
    expect((await get(`/api/v1/network/${network.id}/devices`)).json()).toEqual([]);
    expect((await get(`/api/v1/network/${network.id}`)).json()).not.toHaveProperty('pending_peers');
    const names = (await get('/api/v1/device/user/admin')).json().map((d: { name: string }) => d.name);
    expect(names.sort()).toEqual(['peer-0', 'peer-1', 'peer-2']);

    // Finished: the name is simply taken now.
    const third = await post('/api/v1/network/import', { name: 'Resume', endpoint: 'r.example.com', config: CONFIG, allowed_groups: [] });
    expect(third.json()).toMatchObject({ code: 'network.name_taken' });
  });

  it("a pending peer's address is not handed to a device added meanwhile", async () => {
    const config = CONFIG.replace('10.200.0.10/32', '10.200.0.2/32');
    const { network } = (
      await post('/api/v1/network/import', { name: 'Held', endpoint: 'h.example.com', config, allowed_groups: [] })
    ).json();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/device/admin',
      headers: { cookie: admin },
      payload: { name: 'laptop', wireguard_pubkey: generateKeyPair().publicKey },
    });
    expect(created.statusCode).toBe(201);
    const placed = created.json().configs.find((c: { network_id: number }) => c.network_id === network.id);
    expect(placed.assigned_ips).toEqual(['10.200.0.3']);
  });

  it('GET /network/{id}/devices of an unknown location is 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/network/999999/devices', headers: { cookie: admin } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'network.not_found' });
  });

  it('refuses configs over 4 MiB', async () => {
    const res = await post('/api/v1/network/import', {
      name: 'Huge',
      endpoint: 'x.example.com',
      config: `# ${'x'.repeat(4 * 1024 * 1024 + 10)}`,
      allowed_groups: [],
    });
    expect([400, 413]).toContain(res.statusCode);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
  });
});
