import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, type TestApp } from '#test/helpers.js';
import { daysFromNow, mintLicence, strangerKey, TEST_LICENCE_PUBLIC_KEY } from '#test/support/licence.js';
import { FREE_LIMITS } from './licence-keys.js';

/**
 * Issue 16 §2 (docs/licensing.md): licence keys, states, grace period, and the enterprise gate
 * with the real free limits (the app trusts the TEST key, as every test app does).
 */
describe('licence and enterprise gating', () => {
  let t: TestApp;
  let admin: string;
  const users: string[] = [];
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp({}, { licence: { publicKeys: [TEST_LICENCE_PUBLIC_KEY] } });
    admin = await t.loginAdmin();
  });
  afterAll(() => t?.close());

  const info = async () => {
    const res = await t.request('GET', '/api/v1/enterprise_info', { cookie: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const setKey = (key: string) => t.request('PUT', '/api/v1/licence', { cookie: admin, payload: { licence_key: key } });
  const enterpriseWrite = () =>
    t.request('PATCH', '/api/v1/settings_enterprise', { cookie: admin, payload: { disable_manual_config: false } });
  /** The gate reads a cached state that changes when events commit: wait for it, with a deadline. */
  const waitForWrite = async (status: number) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await enterpriseWrite();
      if (res.statusCode === status || Date.now() > deadline) return res;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const addUsers = async (n: number) => {
    for (let i = 0; i < n; i += 1) {
      serial += 1;
      const name = `lic${serial}`;
      await t.newUser(admin, name);
      users.push(name);
    }
  };

  it('without a licence, enterprise features work within the free limits', async () => {
    const body = await info();
    expect(body).toMatchObject({
      licence: null,
      status: 'no_licence',
      grace_period: false,
      usage: { users: 1, devices: 0, locations: 0, gateways: 0 },
      free_limits: FREE_LIMITS,
      limits: FREE_LIMITS,
      exceeded: [],
      enterprise_enabled: true,
    });
    expect((await enterpriseWrite()).statusCode).toBe(200);
    const alias = await t.request('POST', '/api/v1/acl/alias', {
      cookie: admin,
      payload: { name: 'db', kind: 'destination', destinations: ['10.9.0.0/24'], ports: ['5432'], protocols: ['tcp'] },
    });
    expect(alias.statusCode, alias.body).toBe(201);
  });

  it('above the free limits without a licence, enterprise writes answer 402 and nothing else is blocked', async () => {
    await addUsers(FREE_LIMITS.users as number); // admin + 5 = 6 users
    const refused = await waitForWrite(402);
    expect(problemOf(refused)).toMatchObject({ status: 402, code: 'license.required' });
    expect(problemOf(refused).body.detail).toContain('users 6 of 5');
    const acl = await t.request('POST', '/api/v1/acl/alias', {
      cookie: admin,
      payload: { name: 'web', kind: 'destination', destinations: ['10.9.1.0/24'], ports: ['443'], protocols: ['tcp'] },
    });
    expect(problemOf(acl).code).toBe('license.required');
    expect(await info()).toMatchObject({ status: 'no_licence', exceeded: ['users'], enterprise_enabled: false, usage: { users: 6 } });

    // Reads stay open (the console shows what exists and the prompt); everything else works.
    expect((await t.request('GET', '/api/v1/acl/alias', { cookie: admin })).statusCode).toBe(200);
    expect((await t.request('GET', '/api/v1/settings_enterprise', { cookie: admin })).statusCode).toBe(200);
    expect((await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { instance_name: 'Gated' } })).statusCode).toBe(200);
    const user = await t.createUser('licplain');
    users.push('licplain');
    // A non-admin hears 403, not 402: the access check comes first.
    expect(problemOf(await t.request('PATCH', '/api/v1/settings_enterprise', { cookie: user, payload: {} })).status).toBe(403);
  });

  it('turning directory sync on is gated; plain external sign-in is not', async () => {
    const provider = (extra: Record<string, unknown>) => ({
      kind: 'Custom',
      name: 'Company',
      client_id: 'palisade',
      client_secret: 'provider-secret',
      base_url: 'https://idp.example.com',
      ...extra,
    });
    const refused = await t.request('POST', '/api/v1/openid/provider', {
      cookie: admin,
      payload: provider({ enable_directory_sync: true }),
    });
    expect(problemOf(refused)).toMatchObject({ status: 402, code: 'license.required' });
    const created = await t.request('POST', '/api/v1/openid/provider', {
      cookie: admin,
      payload: provider({ enable_directory_sync: false }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const enable = await t.request('PUT', '/api/v1/openid/provider/Company', {
      cookie: admin,
      payload: provider({ enable_directory_sync: true }),
    });
    expect(problemOf(enable).code).toBe('license.required');
    const rename = await t.request('PUT', '/api/v1/openid/provider/Company', {
      cookie: admin,
      payload: provider({ display_name: 'Company SSO' }),
    });
    expect(rename.statusCode, rename.body).toBe(200);
    expect((await t.request('DELETE', '/api/v1/openid/provider/Company', { cookie: admin })).statusCode).toBe(204);
  });

  it('back under the free limits, enterprise writes work again', async () => {
    for (const name of users.splice(0, 2)) {
      expect((await t.request('DELETE', `/api/v1/user/${name}`, { cookie: admin })).statusCode).toBe(204);
    }
    expect((await waitForWrite(200)).statusCode).toBe(200);
    expect(await info()).toMatchObject({ status: 'no_licence', exceeded: [], enterprise_enabled: true, usage: { users: 5 } });
    await addUsers(2);
    expect((await waitForWrite(402)).statusCode).toBe(402);
  });

  it('refuses garbage, a changed payload and a key signed by another key, and stores nothing', async () => {
    const good = mintLicence({ limits: { users: 1000 } });
    const [payload, signature] = good.split('.') as [string, string];
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    changed.limits.users = 1_000_000;
    const tampered = `${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
    const cases = [
      'not a licence',
      'a.b',
      `${payload}.${signature}x`,
      `${payload}.${Buffer.alloc(64).toString('base64url')}`,
      tampered,
      mintLicence({ limits: { users: 1000 } }, strangerKey()),
      mintLicence({ type: 'lifetime' as 'offline' }),
      mintLicence({ valid_until: 'tomorrow' }),
    ];
    for (const key of cases) {
      const res = await setKey(key);
      expect(problemOf(res), key).toMatchObject({ status: 400, code: 'license.invalid' });
    }
    expect(problemOf(await t.request('PUT', '/api/v1/licence', { cookie: admin, payload: {} })).code).toBe('validation.failed');
    expect((await info()).licence).toBeNull();
  });

  it('an active licence turns enterprise features on above the free limits', async () => {
    const res = await setKey(mintLicence({ id: 'lic-1', customer: 'Acme', type: 'offline', limits: { users: 50 } }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'active',
      licence: { id: 'lic-1', customer: 'Acme', type: 'offline', limits: { users: 50, devices: null, locations: null, gateways: null } },
      limits: { users: 50, devices: null },
      exceeded: [],
      enterprise_enabled: true,
      grace_ends_at: null,
    });
    expect((await enterpriseWrite()).statusCode).toBe(200);
  });

  it("usage over the licence's limits: limits_exceeded and 402", async () => {
    const res = await setKey(mintLicence({ limits: { users: 3 } }));
    expect(res.json()).toMatchObject({ status: 'limits_exceeded', exceeded: ['users'], enterprise_enabled: false });
    const refused = problemOf(await enterpriseWrite());
    expect(refused.code).toBe('license.required');
    expect(refused.body.detail).toContain("licence's limits");
  });

  it('a subscription keeps working for 14 days after valid_until (grace period), then expires', async () => {
    const grace = (await setKey(mintLicence({ type: 'subscription', valid_until: daysFromNow(-3) }))).json();
    expect(grace).toMatchObject({ status: 'active', grace_period: true, enterprise_enabled: true });
    expect(Date.parse(grace.grace_ends_at) - Date.parse(grace.licence.valid_until)).toBe(14 * 86_400_000);
    expect((await enterpriseWrite()).statusCode).toBe(200);

    const expired = (await setKey(mintLicence({ type: 'subscription', valid_until: daysFromNow(-15) }))).json();
    expect(expired).toMatchObject({ status: 'expired', grace_period: false, limits: FREE_LIMITS, enterprise_enabled: false });
    expect(problemOf(await enterpriseWrite()).body.detail).toContain('expired');
  });

  it('an offline key stops at valid_until (no grace period)', async () => {
    const expired = (await setKey(mintLicence({ type: 'offline', valid_until: daysFromNow(-1) }))).json();
    expect(expired).toMatchObject({ status: 'expired', grace_period: false, grace_ends_at: null, enterprise_enabled: false });
    const current = (await setKey(mintLicence({ type: 'offline', valid_until: daysFromNow(1) }))).json();
    expect(current).toMatchObject({ status: 'active', grace_period: false });
  });

  it('removing the licence brings the free limits back; removing none changes nothing', async () => {
    const res = await t.request('DELETE', '/api/v1/licence', { cookie: admin });
    expect(res.json()).toMatchObject({ licence: null, status: 'no_licence', enterprise_enabled: false });
    expect((await t.request('DELETE', '/api/v1/licence', { cookie: admin })).statusCode).toBe(200);
    expect(problemOf(await enterpriseWrite()).code).toBe('license.required');
  });

  it('a build with the production key refuses test-signed keys, and a stored one no longer counts', async () => {
    const production = await createTestApp({}, { licence: undefined });
    try {
      const cookie = await production.loginAdmin();
      const refused = await production.request('PUT', '/api/v1/licence', { cookie, payload: { licence_key: mintLicence() } });
      expect(problemOf(refused)).toMatchObject({ status: 400, code: 'license.invalid' });
      await production.database.db.execute(sql`update settings set licence_key = ${mintLicence()}`);
      const res = await production.request('GET', '/api/v1/enterprise_info', { cookie });
      expect(res.json()).toMatchObject({ licence: null, status: 'no_licence', free_limits: FREE_LIMITS });
    } finally {
      await production.close();
    }
  });
});
