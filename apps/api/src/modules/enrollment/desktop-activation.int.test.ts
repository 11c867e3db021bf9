import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { UserTokensRepo } from './user-tokens.repo.js';
import { hashUserToken, isRedeemable } from './user-tokens.js';

describe('desktop activation', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://vpn.example.com' });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const startDesktop = (username: string, cookie = admin) =>
    t.request('POST', `/api/v1/user/${username}/start_desktop`, { cookie, payload: {} });
  const lookup = (token: string) => new UserTokensRepo(t.database.db).findByHash(hashUserToken(token));

  it('answers a one-time token and the URL once, valid for the configured lifetime; a newer token revokes the older', async () => {
    await t.newUser(admin, 'zoe');
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { enrollment_token_lifetime_hours: 2 } });
    const res = await startDesktop('zoe');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { token, url, expires_at } = res.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe('https://vpn.example.com/');
    const minutes = (Date.parse(expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(119);
    expect(minutes).toBeLessThanOrEqual(120);
    const found = await lookup(token);
    expect(found?.token.purpose).toBe('desktop');
    expect(found?.user.username).toBe('zoe');
    expect(isRedeemable(found, 'desktop', new Date())).toBe(true);
    // Not an enrollment token.
    expect(isRedeemable(found, 'enrollment', new Date())).toBe(false);
    expect(problemOf(await t.request('POST', '/api/v1/enrollment/start', { payload: { token } })).code).toBe('enrollment.token_invalid');

    const newer = (await startDesktop('zoe')).json().token as string;
    expect(await lookup(token)).toBeUndefined();
    expect(isRedeemable(await lookup(newer), 'desktop', new Date())).toBe(true);
    await t.database.db.execute(sql`update user_tokens set expires_at = now() - interval '1 second'`);
    expect(isRedeemable(await lookup(newer), 'desktop', new Date())).toBe(false);

    const events = (await t.database.db.execute(
      sql`select type, username from events where type = 'enrollment.desktop_started'`,
    )) as unknown as {
      rows: unknown[];
    };
    expect(events.rows).toEqual([
      { type: 'enrollment.desktop_started', username: 'admin' },
      { type: 'enrollment.desktop_started', username: 'admin' },
    ]);
  });

  it('only admins start it, for existing active users, with an empty body', async () => {
    await t.newUser(admin, 'ann');
    const ann = await t.login('ann', USER_PASSWORD);
    expect(problemOf(await startDesktop('ann', ann)).status).toBe(403);
    expect(problemOf(await startDesktop('ghost')).code).toBe('user.not_found');
    expect(problemOf(await t.request('POST', '/api/v1/user/ann/start_desktop', { cookie: admin, payload: { token: 'x' } })).code).toBe(
      'validation.failed',
    );
    await t.database.db.execute(sql`update users set is_active = false where username = 'ann'`);
    expect(problemOf(await startDesktop('ann')).code).toBe('auth.user_disabled');
  });
});
