import { DEFAULT_SETTINGS } from '@palisade/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, resetDatabase, snapshot, type TestApp, USER_PASSWORD } from '#test/helpers.js';

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
    expect(essentials.json()).toMatchObject(DEFAULT_SETTINGS);
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
    [{ main_logo_url: 'javascript:alert(1)' }, 'main_logo_url:invalid'],
    [{ nav_logo_url: 'ftp://example.com/a.png' }, 'nav_logo_url:invalid'],
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
});
