import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { createLocation, newKey } from '#test/network-fixtures.js';
import { CLIENT_TOKEN_IP_POLICY } from './client-cli.service.js';

const REDEEM = '/api/v1/enrollment/client/network_device';

describe('CLI token redemption (POST /enrollment/client/network_device)', () => {
  let t: TestApp;
  let admin: string;
  let location: { id: number; name: string; pubkey: string };
  let ipCounter = 0;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    location = await createLocation(t.app, admin, {
      address: ['10.60.0.1/24'],
      endpoint: 'vpn.example.com',
      port: 51999,
      dns: ['10.60.0.1'],
      allowed_ips: ['10.60.0.0/24'],
      keepalive_interval: 25,
    });
  });
  afterAll(() => t.close());

  /** Each test redeems from its own address, so failure counters never leak between tests. */
  const freshIp = () => `203.0.113.${++ipCounter}`;

  const redeem = (payload: unknown, remoteAddress = '203.0.113.250') =>
    t.request('POST', REDEEM, { payload, remoteAddress, headers: { 'user-agent': 'palisade-cli/test' } });

  async function startCli(body: Record<string, unknown> = {}) {
    const res = await t.request('POST', '/api/v1/device/network/start_cli', {
      cookie: admin,
      payload: { name: 'edge-1', location_id: location.id, ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().token as string;
  }

  it('creates the announced device with the machine key and answers the tunnel; the token is then spent', async () => {
    const token = await startCli({ assigned_ips: ['10.60.0.9'], description: 'branch router' });
    const pubkey = newKey();
    const ip = freshIp();
    const res = await redeem({ token, wireguard_pubkey: pubkey }, ip);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.tunnel).toEqual({
      location_id: location.id,
      location_name: location.name,
      addresses: ['10.60.0.9/24'],
      dns: ['10.60.0.1'],
      public_key: location.pubkey,
      endpoint: 'vpn.example.com:51999',
      allowed_ips: ['10.60.0.0/24'],
      persistent_keepalive: 25,
      config: expect.stringContaining('PrivateKey = YOUR_PRIVATE_KEY'),
    });
    expect(JSON.stringify(body)).not.toContain(token);
    const device = (await t.request('GET', `/api/v1/device/network/${body.device.id}`, { cookie: admin })).json();
    expect(device).toMatchObject({
      name: 'edge-1',
      wireguard_pubkey: pubkey,
      assigned_ips: ['10.60.0.9'],
      added_by: 'admin',
      description: 'branch router',
    });
    // No longer pending, and a second redemption is refused like an unknown token.
    expect((await t.request('GET', '/api/v1/device/network/pending', { cookie: admin })).json()).toEqual([]);
    const again = await redeem({ token, wireguard_pubkey: newKey() }, ip);
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('client_token.invalid');
    // The event names the issuing admin and the machine's address.
    const events = await t.database.db.execute(
      sql`select type, username, ip, object_type, object_id from events where type = 'network_device.added' and ip = ${ip}`,
    );
    expect((events as unknown as { rows: unknown[] }).rows).toEqual([
      { type: 'network_device.added', username: 'admin', ip, object_type: 'network_device', object_id: String(body.device.id) },
    ]);
  });

  it('allocates the first free address when the token named none', async () => {
    const res = await redeem({ token: await startCli(), wireguard_pubkey: newKey() }, freshIp());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tunnel.addresses).toEqual(['10.60.0.2/24']);
  });

  it('re-keys an existing network device and keeps its addresses', async () => {
    const created = await t.request('POST', '/api/v1/device/network', {
      cookie: admin,
      payload: { name: 'db-1', location_id: location.id, assigned_ips: ['10.60.0.20'], wireguard_pubkey: newKey() },
    });
    const id = created.json().device.id as number;
    const issued = await t.request('POST', `/api/v1/device/network/start_cli/${id}`, { cookie: admin });
    const pubkey = newKey();
    const res = await redeem({ token: issued.json().token, wireguard_pubkey: pubkey }, freshIp());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().device).toEqual({ id, name: 'db-1' });
    expect(res.json().tunnel.addresses).toEqual(['10.60.0.20/24']);
    const device = (await t.request('GET', `/api/v1/device/network/${id}`, { cookie: admin })).json();
    expect(device).toMatchObject({ wireguard_pubkey: pubkey, assigned_ips: ['10.60.0.20'] });
  });

  it('refuses unknown and expired tokens alike', async () => {
    const ip = freshIp();
    const unknown = await redeem({ token: 'not-a-token-at-all', wireguard_pubkey: newKey() }, ip);
    const token = await startCli();
    await t.database.db.execute(sql`update cli_tokens set expires_at = now() - interval '1 minute'`);
    const expired = await redeem({ token, wireguard_pubkey: newKey() }, ip);
    for (const res of [unknown, expired]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'client_token.invalid' });
    }
    expect(unknown.json().detail).toBe(expired.json().detail);
  });

  it('a refused key leaves the token usable (the spending rolls back)', async () => {
    const token = await startCli();
    const taken = newKey();
    await t.request('POST', '/api/v1/device/network', {
      cookie: admin,
      payload: { name: 'holder', location_id: location.id, wireguard_pubkey: taken },
    });
    const ip = freshIp();
    const refused = await redeem({ token, wireguard_pubkey: taken }, ip);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().code).toBe('device.key_taken');
    expect((await redeem({ token, wireguard_pubkey: newKey() }, ip)).statusCode).toBe(201);
  });

  it('two concurrent redemptions of one token: exactly one succeeds', async () => {
    const token = await startCli();
    const results = await Promise.all([0, 1, 2].map(() => redeem({ token, wireguard_pubkey: newKey() }, freshIp())));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
    const count = await t.database.db.execute(sql`select count(*)::int as n from devices where kind = 'network'`);
    expect((count as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
  });

  it('locks an address out after repeated failures, even for a valid token; other addresses still redeem', async () => {
    const ip = freshIp();
    for (let i = 0; i < CLIENT_TOKEN_IP_POLICY.limit; i++) {
      expect((await redeem({ token: `wrong-${i}`, wireguard_pubkey: newKey() }, ip)).statusCode).toBe(400);
    }
    const token = await startCli();
    const locked = await redeem({ token, wireguard_pubkey: newKey() }, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('client_token.too_many_attempts');
    expect((await redeem({ token, wireguard_pubkey: newKey() }, freshIp())).statusCode).toBe(201);
  });

  it('answers 404 module.disabled while the WireGuard module is off, and leaves the token usable', async () => {
    const token = await startCli();
    const ip = freshIp();
    const off = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { wireguard_enabled: false } });
    expect(off.statusCode, off.body).toBe(200);
    const refused = await redeem({ token, wireguard_pubkey: newKey() }, ip);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('module.disabled');
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { wireguard_enabled: true } });
    expect((await redeem({ token, wireguard_pubkey: newKey() }, ip)).statusCode).toBe(201);
  });

  it('refuses bad input with 400 and a field', async () => {
    const res = await redeem({ token: 'x', wireguard_pubkey: 'not-a-key' }, freshIp());
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().errors)).toContain('wireguard_pubkey');
    expect((await redeem({}, freshIp())).statusCode).toBe(400);
  });
});
