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
    expect(res.json().errors[0]).toMatchObject({ path: 'devices.1.wireguard_ips', code: 'network.ip_in_use' });
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
