import { parseWgConfig, PRIVATE_KEY_PLACEHOLDER } from '@palisade/wireguard';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { addDevice, createLocation, locationBody, newKey } from '#test/network-fixtures.js';

describe('locations', () => {
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

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

  it('creates, reads, lists, updates and deletes a location with an encrypted keypair', async () => {
    const created = await createLocation(t.app, admin, { name: 'Office', address: ['10.20.0.1/24', 'fd20::1/64'] });
    expect(created).toMatchObject({ name: 'Office', address: ['10.20.0.1/24', 'fd20::1/64'], keepalive_interval: 25, allowed_groups: [] });
    expect(created.pubkey).toHaveLength(44);
    const stored = await t.database.db.execute('select private_key_enc from locations');
    expect(JSON.stringify(stored)).toMatch(/v1\./);
    expect((await inject('GET', '/api/v1/network', admin)).json()).toHaveLength(1);
    const updated = await inject('PUT', `/api/v1/network/${created.id}`, admin, locationBody({ name: 'HQ', port: 51821 }));
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'HQ', port: 51821 });
    expect((await inject('DELETE', `/api/v1/network/${created.id}`, admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/v1/network/${created.id}`, admin)).json().code).toBe('network.not_found');
  });

  it.each([
    [{ address: ['10.0.0.1'] }, 'address.0', 'network.address_with_mask'],
    [{ address: [] }, 'address', 'required'],
    [{ endpoint: 'not a host!' }, 'endpoint', 'network.endpoint'],
    [{ port: 70000 }, 'port', 'network.max_port'],
    [{ port: 0 }, 'port', 'network.port'],
    [{ allowed_ips: ['10.0.0.0/33'] }, 'allowed_ips.0', 'network.allowed_ip'],
    [{ dns: ['bad dns'] }, 'dns.0', 'network.dns'],
    [{ keepalive_interval: -1 }, 'keepalive_interval', 'min_value'],
    [{ peer_disconnect_threshold: 10 }, 'peer_disconnect_threshold', 'min_value'],
  ])('rejects %j with %s %s and writes nothing', async (overrides, path, code) => {
    const res = await inject('POST', '/api/v1/network', admin, locationBody(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual(expect.objectContaining({ path, code }));
    expect((await inject('GET', '/api/v1/network', admin)).json()).toEqual([]);
  });

  it('accepts domains in allowed IPs but never renders them into configs', async () => {
    const loc = await createLocation(t.app, admin, { allowed_ips: ['10.20.0.0/24', 'intranet.example.com'] });
    const { configs } = await addDevice(t.app, admin, 'admin');
    const cfg = configs.find((c) => c.network_id === loc.id);
    expect(cfg?.config).toContain('AllowedIPs = 10.20.0.0/24\n');
  });

  it('rejects a taken name and unknown allowed groups', async () => {
    await createLocation(t.app, admin, { name: 'Same' });
    expect((await inject('POST', '/api/v1/network', admin, locationBody({ name: 'same' }))).json().errors[0].code).toBe('name_taken');
    expect((await inject('POST', '/api/v1/network', admin, locationBody({ allowed_groups: ['nope'] }))).json().code).toBe(
      'group.not_found',
    );
  });

  it('gives each device one address per location address, never network, broadcast or own', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.30.0.1/30', 'fd30::1/126'] });
    const first = await addDevice(t.app, admin, 'admin');
    expect(first.configs.find((c) => c.network_id === loc.id)?.assigned_ips).toEqual(['10.30.0.2', 'fd30::2']);
    const res = await inject('POST', '/api/v1/device/admin', admin, { name: 'second', wireguard_pubkey: newKey() });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('network.full');
  });

  it('re-assigns device addresses when the location address changes, in one transaction', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.40.0.1/24'] });
    const { device } = await addDevice(t.app, admin, 'admin');
    const res = await inject(
      'PUT',
      `/api/v1/network/${loc.id}`,
      admin,
      locationBody({ name: loc.name, address: ['10.41.0.1/24', 'fd41::1/64'] }),
    );
    expect(res.statusCode).toBe(200);
    const after = (await inject('GET', `/api/v1/device/${device.id}`, admin)).json();
    expect(after.networks[0].device_wireguard_ips.sort()).toEqual(['10.41.0.2', 'fd41::2']);
  });

  it('a widened prefix keeps existing addresses', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.50.0.1/24'] });
    const { device } = await addDevice(t.app, admin, 'admin');
    await inject('PUT', `/api/v1/network/${loc.id}`, admin, locationBody({ name: loc.name, address: ['10.50.0.1/16'] }));
    expect((await inject('GET', `/api/v1/device/${device.id}`, admin)).json().networks[0].device_wireguard_ips).toEqual(['10.50.0.2']);
  });

  it('allowed groups decide which users get addresses, and follow membership changes', async () => {
    const alice = await t.createUser('alice');
    await inject('POST', '/api/v1/group', admin, { name: 'staff' });
    const loc = await createLocation(t.app, admin, { allowed_groups: ['staff'] });
    const { device, configs } = await addDevice(t.app, alice, 'alice');
    expect(configs).toEqual([]);
    expect((await inject('POST', '/api/v1/group/staff', admin, { username: 'alice' })).statusCode).toBe(200);
    expect(
      (await inject('GET', `/api/v1/device/${device.id}`, alice)).json().networks.map((n: { network_id: number }) => n.network_id),
    ).toEqual([loc.id]);
    expect((await inject('DELETE', '/api/v1/group/staff/user/alice', admin)).statusCode).toBe(204);
    expect((await inject('GET', `/api/v1/device/${device.id}`, alice)).json().networks).toEqual([]);
    await inject('PUT', `/api/v1/network/${loc.id}`, admin, locationBody({ name: loc.name, allowed_groups: [] }));
    expect((await inject('GET', `/api/v1/device/${device.id}`, alice)).json().networks).toHaveLength(1);
  });

  it('deleting a location removes its device addresses', async () => {
    const loc = await createLocation(t.app, admin);
    const { device } = await addDevice(t.app, admin, 'admin');
    await inject('DELETE', `/api/v1/network/${loc.id}`, admin);
    expect((await inject('GET', `/api/v1/device/${device.id}`, admin)).json().networks).toEqual([]);
    const [count] = ((await t.database.db.execute('select count(*)::int as n from device_ips')) as unknown as { rows: { n: number }[] })
      .rows;
    expect(count?.n).toBe(0);
  });

  it('reuses a freed address first', async () => {
    await createLocation(t.app, admin, { address: ['10.60.0.1/24'] });
    const a = await addDevice(t.app, admin, 'admin');
    await addDevice(t.app, admin, 'admin');
    await inject('DELETE', `/api/v1/device/${a.device.id}`, admin);
    const c = await addDevice(t.app, admin, 'admin');
    expect(c.configs[0]?.assigned_ips).toEqual(['10.60.0.2']);
  });

  it('fills freed addresses lowest first, then continues after the highest, skipping hand-picked ones', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.61.0.1/24'] });
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await addDevice(t.app, admin, 'admin')); // .2 … .6
    const manual = await inject('POST', '/api/v1/device/network', admin, {
      name: 'pinned',
      location_id: loc.id,
      assigned_ips: ['10.61.0.7'],
      wireguard_pubkey: newKey(),
    });
    expect(manual.statusCode).toBe(201);
    await inject('DELETE', `/api/v1/device/${made[3]?.device.id}`, admin); // frees .5
    await inject('DELETE', `/api/v1/device/${made[1]?.device.id}`, admin); // frees .3
    const next = [];
    for (let i = 0; i < 3; i++) next.push((await addDevice(t.app, admin, 'admin')).configs[0]?.assigned_ips[0]);
    expect(next).toEqual(['10.61.0.3', '10.61.0.5', '10.61.0.8']);
  });

  it('jumps over a run of hand-picked addresses; a suggestion does not take the address', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.62.0.1/24', 'fd62::1/120'] });
    const pin = async (ip: string, i: number) =>
      expect(
        (
          await inject('POST', '/api/v1/device/network', admin, {
            name: `pin${i}`,
            location_id: loc.id,
            assigned_ips: [ip],
            wireguard_pubkey: newKey(),
          })
        ).statusCode,
      ).toBe(201);
    for (const [i, ip] of ['10.62.0.2', '10.62.0.3', '10.62.0.4', '10.62.0.5', '10.62.0.8'].entries()) await pin(ip, i);
    const suggest = async () => (await inject('GET', `/api/v1/device/network/ip/${loc.id}`, admin)).json().ips;
    // The pins were given IPv6 addresses from the mark (fd62::2 … ::6).
    expect(await suggest()).toEqual(['10.62.0.6', 'fd62::7']);
    expect(await suggest()).toEqual(['10.62.0.6', 'fd62::7']);
    const next = [];
    for (let i = 0; i < 3; i++) next.push((await addDevice(t.app, admin, 'admin')).configs[0]?.assigned_ips);
    expect(next).toEqual([
      ['10.62.0.6', 'fd62::7'],
      ['10.62.0.7', 'fd62::8'],
      ['10.62.0.9', 'fd62::9'],
    ]);
  });

  it('100 concurrent device creates never share an address', async () => {
    await createLocation(t.app, admin, { address: ['10.70.0.1/24'] });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => inject('POST', '/api/v1/device/admin', admin, { name: `c${i}`, wireguard_pubkey: newKey() })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(100).fill(201));
    const ips = results.map((r) => r.json().configs[0].assigned_ips[0]);
    expect(new Set(ips).size).toBe(100);
  });

  it('renders a config with the placeholder that parses back', async () => {
    const loc = await createLocation(t.app, admin, { address: ['10.80.0.1/24'], dns: ['10.80.0.1'], keepalive_interval: 15 });
    const { device } = await addDevice(t.app, admin, 'admin');
    const res = await inject('GET', `/api/v1/network/${loc.id}/device/${device.id}/config`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toContain(`PrivateKey = ${PRIVATE_KEY_PLACEHOLDER}`);
    const parsed = parseWgConfig(res.body.replace(PRIVATE_KEY_PLACEHOLDER, 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='));
    expect(parsed.interface.addresses).toEqual(['10.80.0.2/24']);
    expect(parsed.peers[0]).toMatchObject({
      publicKey: loc.pubkey,
      endpoint: { host: 'vpn.example.com', port: 51820 },
      persistentKeepalive: 15,
    });
  });
});
