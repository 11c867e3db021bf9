import { DEFAULT_SETTINGS, ROUTE_ACCESS, type RouteRule, SettingsEssentialsSchema } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, problemOf, resetDatabase, snapshot, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { addDevice, createLocation } from '#test/network-fixtures.js';
import { MODULE_FLAGS_TTL_MS, SettingsService } from './settings.service.js';

const FULL = {
  instance_name: 'Acme VPN',
  main_logo_url: 'https://cdn.example.com/logo.png',
  nav_logo_url: '/assets/nav.svg',
  wireguard_enabled: true,
  webhooks_enabled: false,
  worker_enabled: true,
  openid_enabled: false,
};

describe('settings', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    await t.newUser(admin, 'alice');
    user = await t.login('alice', USER_PASSWORD);
  });
  afterAll(() => t.close());

  const fields = (res: { json(): { errors?: { path: string; code: string }[] } }) =>
    (res.json().errors ?? []).map((e) => `${e.path}:${e.code}`);

  it('starts with the defaults, publicly visible in settings_essentials', async () => {
    const essentials = await t.request('GET', '/api/v1/settings_essentials');
    expect(essentials.statusCode).toBe(200);
    // The public subset only: the retention period and the egress allow-list stay behind the admin route.
    const essentialKeys = Object.keys(SettingsEssentialsSchema.shape);
    expect(Object.keys(essentials.json()).sort()).toEqual(essentialKeys.sort());
    expect(essentials.json()).toEqual({
      ...Object.fromEntries(
        essentialKeys.filter((k) => k in DEFAULT_SETTINGS).map((k) => [k, DEFAULT_SETTINGS[k as keyof typeof DEFAULT_SETTINGS]]),
      ),
      // No external OpenID provider configured: no sign-in button on the login page.
      external_login_button: null,
    });
    const settings = await t.request('GET', '/api/v1/settings', { cookie: admin });
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject(DEFAULT_SETTINGS);
  });

  it('PUT replaces everything and settings_essentials reflects it for anonymous callers', async () => {
    const res = await t.request('PUT', '/api/v1/settings', { cookie: admin, payload: FULL });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(FULL);
    expect((await t.request('GET', '/api/v1/settings', { cookie: admin })).json()).toMatchObject(FULL);
    expect((await t.request('GET', '/api/v1/settings_essentials')).json()).toMatchObject(FULL);
  });

  it('PUT trims the instance name and accepts empty logo URLs', async () => {
    const res = await t.request('PUT', '/api/v1/settings', {
      cookie: admin,
      payload: { ...FULL, instance_name: '  Spaced  ', main_logo_url: '', nav_logo_url: '' },
    });
    expect(res.json()).toMatchObject({ instance_name: 'Spaced', main_logo_url: '', nav_logo_url: '' });
  });

  it('PUT needs every field', async () => {
    const before = await snapshot(t.database);
    const { webhooks_enabled: _w, ...partial } = FULL;
    const res = await t.request('PUT', '/api/v1/settings', { cookie: admin, payload: partial });
    expect(problemOf(res)).toMatchObject({ status: 400, code: 'validation.failed' });
    expect(fields(res)).toEqual(['webhooks_enabled:invalid_type']);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('PATCH changes only the fields sent', async () => {
    const res = await t.request('PATCH', '/api/v1/settings', {
      cookie: admin,
      payload: { instance_name: 'Patched', worker_enabled: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ...DEFAULT_SETTINGS, instance_name: 'Patched', worker_enabled: false });
    expect((await t.request('GET', '/api/v1/settings_essentials')).json()).toMatchObject({
      instance_name: 'Patched',
      worker_enabled: false,
    });
    const empty = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: {} });
    expect(empty.json()).toMatchObject({ instance_name: 'Patched' });
  });

  it.each([
    [{ instance_name: '' }, 'instance_name:required'],
    [{ instance_name: '   ' }, 'instance_name:required'],
    [{ instance_name: 'x'.repeat(65) }, 'instance_name:max_length'],
    [{ instance_name: 42 }, 'instance_name:invalid_type'],
    [{ main_logo_url: 'javascript:alert(1)' }, 'main_logo_url:url.http'],
    [{ nav_logo_url: 'ftp://example.com/a.png' }, 'nav_logo_url:url.http'],
    [{ main_logo_url: 'ftp://bad' }, 'main_logo_url:url.http'],
    [{ nav_logo_url: `https://e.com/${'a'.repeat(2048)}` }, 'nav_logo_url:max_length'],
    [{ wireguard_enabled: 'true' }, 'wireguard_enabled:invalid_type'],
    [{ theme: 'dark' }, 'theme:unknown_field'],
  ])('PATCH and PUT refuse %j', async (change, expected) => {
    const before = await snapshot(t.database);
    const patch = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: change });
    expect(problemOf(patch)).toMatchObject({ status: 400, code: 'validation.failed' });
    expect(fields(patch)).toContain(expected);
    const put = await t.request('PUT', '/api/v1/settings', { cookie: admin, payload: { ...FULL, ...change } });
    expect(fields(put)).toContain(expected);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('only admins read or change settings; essentials stay public', async () => {
    const before = await snapshot(t.database);
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', FULL],
      ['PATCH', { instance_name: 'Mine' }],
    ] as const) {
      expect(problemOf(await t.request(method, '/api/v1/settings', { cookie: user, payload }))).toMatchObject({
        status: 403,
        code: 'auth.forbidden',
      });
      expect(problemOf(await t.request(method, '/api/v1/settings', { payload }))).toMatchObject({
        status: 401,
        code: 'auth.unauthenticated',
      });
    }
    expect(await snapshot(t.database)).toBe(before);
    expect((await t.request('GET', '/api/v1/settings_essentials', { cookie: user })).statusCode).toBe(200);
  });

  describe('module flags', () => {
    const setWireguard = async (enabled: boolean) => {
      const res = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { wireguard_enabled: enabled } });
      expect(res.statusCode).toBe(200);
    };

    it('a disabled WireGuard module answers 404 module.disabled on its routes, for admins and users; enabled again, they work', async () => {
      const location = await createLocation(t.app, admin);
      const device = (await addDevice(t.app, user, 'alice')).device;
      const adminCalls = [
        ['GET', '/api/v1/network'],
        ['GET', `/api/v1/network/${location.id}`],
        ['GET', `/api/v1/network/${location.id}/token`],
        ['GET', `/api/v1/network/${location.id}/gateways`],
        ['GET', '/api/v1/network/stats'],
        ['GET', '/api/v1/device'],
        ['GET', '/api/v1/device/network'],
      ] as const;
      const userCalls = [
        ['GET', '/api/v1/device/user/alice'],
        ['GET', `/api/v1/device/${device.id}`],
        ['GET', `/api/v1/network/${location.id}/device/${device.id}/config`],
      ] as const;
      try {
        await setWireguard(false);
        for (const [method, url] of [...adminCalls, ...userCalls]) {
          const res = await t.request(method, url, { cookie: admin });
          expect(problemOf(res), url).toMatchObject({ status: 404, code: 'module.disabled' });
          expect(res.json().detail).toBe('The WireGuard module is disabled.');
        }
        for (const [method, url] of userCalls) {
          expect(problemOf(await t.request(method, url, { cookie: user })), url).toMatchObject({ status: 404, code: 'module.disabled' });
        }
        // Every route of the module, whatever its body: the check comes before validation.
        for (const [key, rule] of Object.entries(ROUTE_ACCESS) as [string, RouteRule][]) {
          if (rule.module !== 'wireguard') continue;
          const [method, pattern] = key.split(' ') as [HttpMethod, string];
          const url = pattern.replace(/:(\w+)/g, (_m, param: string) => (param === 'username' ? 'alice' : '1'));
          expect(problemOf(await t.request(method, url, { cookie: admin, payload: {} })), key).toMatchObject({ code: 'module.disabled' });
        }
        const created = await t.request('POST', '/api/v1/device/alice', { cookie: user, payload: { name: 'x', wireguard_pubkey: 'k' } });
        expect(problemOf(created)).toMatchObject({ status: 404, code: 'module.disabled' });
        // Anonymous callers still hear 401; identity and settings routes are not part of the module.
        expect(problemOf(await t.request('GET', '/api/v1/network'))).toMatchObject({ status: 401 });
        expect((await t.request('GET', '/api/v1/me', { cookie: user })).statusCode).toBe(200);
        expect((await t.request('GET', '/api/v1/user', { cookie: admin })).statusCode).toBe(200);
        expect((await t.request('GET', '/api/v1/settings', { cookie: admin })).json()).toMatchObject({ wireguard_enabled: false });
      } finally {
        await setWireguard(true);
      }
      for (const [method, url] of [...adminCalls, ...userCalls]) {
        expect((await t.request(method, url, { cookie: admin })).statusCode, url).toBe(200);
      }
      for (const [method, url] of userCalls) expect((await t.request(method, url, { cookie: user })).statusCode, url).toBe(200);
    });

    it('reads the flags from the database once per TTL, and at once after a write in this process', async () => {
      let now = 1_000_000;
      const service = new SettingsService(t.database.db, () => now);
      expect(await service.moduleFlags()).toMatchObject({ wireguard: true });
      // Another replica writes: this one keeps its copy until the TTL has passed, without a query.
      await t.database.db.execute(sql`update settings set wireguard_enabled = false`);
      expect(service.moduleFlags()).toMatchObject({ wireguard: true });
      now += MODULE_FLAGS_TTL_MS;
      expect(await service.moduleFlags()).toMatchObject({ wireguard: false });
      await service.update({ userId: 1, username: 'admin' }, { wireguard_enabled: true, openid_enabled: false });
      expect(service.moduleFlags()).toEqual({ wireguard: true, webhooks: true, worker: true, openid: false });
    });
  });

  it('GET /info: smtp_enabled is false while no SMTP server is configured (modules/mail tests the configured case)', async () => {
    expect((await t.request('GET', '/api/v1/info', { cookie: user })).json()).toMatchObject({ smtp_enabled: false });
  });
});
