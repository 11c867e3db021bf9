import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userTokens } from '#src/db/schema/index.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { createLocation, newKey } from '#test/network-fixtures.js';

const ACTIVATE = '/api/v1/enrollment/client/desktop';

describe('desktop activation (POST /enrollment/client/desktop)', () => {
  let t: TestApp;
  let admin: string;
  let ipCounter = 0;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    await t.createUser('anna');
  });
  afterAll(() => t.close());

  const freshIp = () => `198.18.7.${++ipCounter}`;
  const activate = (payload: unknown, remoteAddress = freshIp()) => t.request('POST', ACTIVATE, { payload, remoteAddress });

  async function userId(username: string): Promise<number> {
    const rows = await t.database.db.execute(sql`select id from users where username = ${username}`);
    return (rows as unknown as { rows: { id: number }[] }).rows[0]?.id ?? 0;
  }

  /** A token as start_desktop issues it (32 random bytes, stored as its SHA-256). */
  async function desktopToken(username = 'anna', purpose: 'desktop' | 'enrollment' = 'desktop', expiresInMs = 3600_000) {
    const token = randomToken(32);
    await t.database.db.insert(userTokens).values({
      userId: await userId(username),
      purpose,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + expiresInMs),
    });
    return token;
  }

  it("registers the client's key as the user's device and answers a tunnel per location; the token is then spent", async () => {
    const a = await createLocation(t.app, admin, { name: 'A', address: ['10.71.0.1/24'], allowed_ips: ['10.71.0.0/24'] });
    const b = await createLocation(t.app, admin, { name: 'B', address: ['10.72.0.1/24'], allowed_ips: ['10.72.0.0/24'] });
    const token = await desktopToken();
    const pubkey = newKey();
    const res = await activate({ token, name: 'anna-laptop', wireguard_pubkey: pubkey });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.user).toEqual({ username: 'anna' });
    expect(
      body.tunnels.map((x: { location_id: number; addresses: string[]; public_key: string }) => [x.location_id, x.addresses, x.public_key]),
    ).toEqual([
      [a.id, ['10.71.0.2/24'], a.pubkey],
      [b.id, ['10.72.0.2/24'], b.pubkey],
    ]);
    expect(body.tunnels[0].config).toContain('PrivateKey = YOUR_PRIVATE_KEY');
    const devices = (await t.request('GET', '/api/v1/device/user/anna', { cookie: admin })).json();
    expect(devices.map((d: { name: string; wireguard_pubkey: string }) => [d.name, d.wireguard_pubkey])).toEqual([['anna-laptop', pubkey]]);
    const again = await activate({ token, name: 'second', wireguard_pubkey: newKey() });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('client_token.invalid');
  });

  it('redeems what POST /user/{username}/start_desktop issued; a newer token revokes the older', async () => {
    await createLocation(t.app, admin, { address: ['10.75.0.1/24'] });
    const issue = async () => {
      const res = await t.request('POST', '/api/v1/user/anna/start_desktop', { cookie: admin, payload: {} });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().token as string;
    };
    const older = await issue();
    const newer = await issue();
    const revoked = await activate({ token: older, name: 'laptop', wireguard_pubkey: newKey() });
    expect(revoked.json().code).toBe('client_token.invalid');
    const res = await activate({ token: newer, name: 'laptop', wireguard_pubkey: newKey() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tunnels[0].addresses).toEqual(['10.75.0.2/24']);
  });

  it('refuses unknown, expired and other-purpose tokens and tokens of disabled users alike', async () => {
    const expired = await desktopToken('anna', 'desktop', -60_000);
    const enrollment = await desktopToken('anna', 'enrollment');
    await t.createUser('bob');
    const disabled = await desktopToken('bob');
    await t.database.db.execute(sql`update users set is_active = false where username = 'bob'`);
    for (const token of ['nope', expired, enrollment, disabled]) {
      const res = await activate({ token, name: 'x', wireguard_pubkey: newKey() });
      expect(res.statusCode, token).toBe(400);
      expect(res.json().code).toBe('client_token.invalid');
    }
  });

  it('a taken name or key, or manual config disabled for a non-admin, leaves the token usable', async () => {
    await createLocation(t.app, admin, { address: ['10.73.0.1/24'] });
    const token = await desktopToken();
    const taken = newKey();
    await t.request('POST', '/api/v1/device/anna', { cookie: admin, payload: { name: 'phone', wireguard_pubkey: taken } });
    const name = await activate({ token, name: 'phone', wireguard_pubkey: newKey() });
    expect(name.json().code).toBe('device.name_taken');
    const key = await activate({ token, name: 'laptop', wireguard_pubkey: taken });
    expect(key.json().code).toBe('device.key_taken');
    await t.request('PATCH', '/api/v1/settings_enterprise', { cookie: admin, payload: { disable_manual_config: true } });
    const locked = await activate({ token, name: 'laptop', wireguard_pubkey: newKey() });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().code).toBe('device.config_disabled');
    await t.request('PATCH', '/api/v1/settings_enterprise', { cookie: admin, payload: { disable_manual_config: false } });
    expect((await activate({ token, name: 'laptop', wireguard_pubkey: newKey() })).statusCode).toBe(201);
  });

  it('leaves default routes out of the tunnels when all-traffic routing is disabled', async () => {
    await createLocation(t.app, admin, { address: ['10.74.0.1/24'], allowed_ips: ['0.0.0.0/0', '10.74.0.0/24'] });
    await t.request('PATCH', '/api/v1/settings_enterprise', { cookie: admin, payload: { disable_all_traffic: true } });
    const res = await activate({ token: await desktopToken(), name: 'laptop', wireguard_pubkey: newKey() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tunnels[0].allowed_ips).toEqual(['10.74.0.0/24']);
    expect(res.json().tunnels[0].config).not.toContain('0.0.0.0/0');
  });
});
