import { TOO_MANY_ATTEMPTS_DETAIL } from '@palisade/contracts';
import { sql } from 'drizzle-orm';
import { sha256 } from '#src/lib/crypto.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, cookieOf, createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';

const withoutRequestId = (body: Record<string, unknown>) => {
  const { request_id: _ignored, ...rest } = body;
  return rest;
};

describe('login, sessions and lockout', () => {
  let t: TestApp;
  let admin: string;
  const login = (username: string, password: string, extra: { cookie?: string; remoteAddress?: string } = {}) =>
    t.request('POST', '/api/v1/auth', { payload: { username, password }, ...extra });

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  it('logs in by username and returns the user without secrets', async () => {
    const res = await login('admin', ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ username: 'admin', is_admin: true, is_active: true, groups: ['admin'] });
    expect(res.body).not.toMatch(/password_hash|passwordHash|\$argon2/);
    expect(String(res.headers['set-cookie'])).toMatch(/^palisade_session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('logs in by email, case-insensitively, and by username in another case', async () => {
    await t.newUser(admin, 'mallory', { email: 'Mallory.Mail@Example.com' });
    expect((await login('mallory.mail@example.COM', USER_PASSWORD)).statusCode).toBe(200);
    expect((await login('MALLORY', USER_PASSWORD)).statusCode).toBe(200);
  });

  it('answers unknown users with the same 401 body as a wrong password', async () => {
    const wrong = await login('admin', 'Wrong-pass1!');
    const unknown = await login('nobody-here', 'Wrong-pass1!');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(problemOf(wrong).code).toBe('auth.invalid_credentials');
    expect(withoutRequestId(unknown.json())).toEqual(withoutRequestId(wrong.json()));
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('validates the login body', async () => {
    const res = await t.request('POST', '/api/v1/auth', { payload: { username: '', password: 'x', extra: 1 } });
    const p = problemOf(res);
    expect(p.status).toBe(400);
    expect(p.code).toBe('validation.failed');
    expect(p.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'username', code: 'required' }),
        expect.objectContaining({ path: 'extra', code: 'unknown_field' }),
      ]),
    );
  });

  it('locks a username after 5 failures: the 6th attempt is 429 even with the right password', async () => {
    for (let i = 1; i <= 5; i++) {
      expect((await login('admin', `Wrong-${i}!aA`)).statusCode).toBe(401);
    }
    const locked = await login('admin', ADMIN_PASSWORD);
    const p = problemOf(locked);
    expect(p.status).toBe(429);
    expect(p.code).toBe('auth.too_many_attempts');
    expect(p.body.detail).toBe(TOO_MANY_ATTEMPTS_DETAIL);
    expect(p.body.detail).toBe('Too many bad login attempts. Please try again in a few minutes.');
    expect(locked.headers['set-cookie']).toBeUndefined();
    // The lock is per username: the case of the name does not matter, other users are unaffected.
    expect((await login('ADMIN', ADMIN_PASSWORD)).statusCode).toBe(429);
    await t.newUser(admin, 'bob');
    expect((await login('bob', USER_PASSWORD)).statusCode).toBe(200);
  });

  it('parallel guesses cannot slip past the limit: at most 5 passwords are checked', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login('admin', `Guess-${i}!aA`)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(429);
  });

  it('a lock ends when it expires, and failures age out with their window', async () => {
    for (let i = 1; i <= 5; i++) await login('admin', `Wrong-${i}!aA`);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(429);
    // Five minutes later (lock) and past the 15-minute window: a fresh start.
    await t.database.db.execute(
      sql`update auth_failures set locked_until = now() - interval '1 second', window_started_at = now() - interval '16 minutes'`,
    );
    expect((await login('admin', 'Wrong-6!aA')).statusCode).toBe(401);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('counts failures by email and by username against the same account', async () => {
    for (let i = 1; i <= 3; i++) expect((await login('admin', `Wrong-${i}!aA`)).statusCode).toBe(401);
    for (let i = 1; i <= 2; i++) expect((await login('admin@palisade.local', `Wrong-${i}!aA`)).statusCode).toBe(401);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(429);
    expect((await login('admin@palisade.local', ADMIN_PASSWORD)).statusCode).toBe(429);
  });

  it('a successful login resets the username counter', async () => {
    for (let i = 1; i <= 4; i++) expect((await login('admin', `Wrong-${i}!aA`)).statusCode).toBe(401);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    for (let i = 1; i <= 4; i++) expect((await login('admin', `Wrong-${i}!aA`)).statusCode).toBe(401);
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('locks an IP address after 30 failures across usernames', async () => {
    const ip = '203.0.113.9';
    for (let i = 0; i < 30; i++) {
      expect((await login(`ghost${i}`, 'Wrong-pass1!', { remoteAddress: ip })).statusCode).toBe(401);
    }
    const res = await login('admin', ADMIN_PASSWORD, { remoteAddress: ip });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'auth.too_many_attempts', detail: TOO_MANY_ATTEMPTS_DETAIL });
    // Another address is not locked.
    expect((await login('admin', ADMIN_PASSWORD, { remoteAddress: '203.0.113.10' })).statusCode).toBe(200);
  });

  it('parallel guesses across usernames cannot slip past the per-IP limit', async () => {
    const ip = '203.0.113.77';
    const results = await Promise.all(Array.from({ length: 45 }, (_, i) => login(`spray${i}`, 'Wrong-pass1!', { remoteAddress: ip })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
    expect((await login('admin', ADMIN_PASSWORD, { remoteAddress: ip })).statusCode).toBe(429);
  });

  it('successful logins do not count towards the per-IP limit', async () => {
    const ip = '203.0.113.78';
    // Had these 10 counted, the 21st failure below would lock the address.
    for (let i = 0; i < 10; i++) expect((await login('admin', ADMIN_PASSWORD, { remoteAddress: ip })).statusCode).toBe(200);
    for (let i = 0; i < 29; i++) expect((await login(`miss${i}`, 'Wrong-pass1!', { remoteAddress: ip })).statusCode).toBe(401);
    expect((await login('admin', ADMIN_PASSWORD, { remoteAddress: ip })).statusCode).toBe(200);
  });

  it('rotates the session at login: the old cookie stops working', async () => {
    const first = await t.loginAdmin();
    const again = await login('admin', ADMIN_PASSWORD, { cookie: first });
    expect(again.statusCode).toBe(200);
    const second = cookieOf(again);
    expect(second).not.toBe(first);
    expect((await t.request('GET', '/api/v1/me', { cookie: first })).statusCode).toBe(401);
    expect((await t.request('GET', '/api/v1/me', { cookie: second })).statusCode).toBe(200);
  });

  it('logout invalidates the cookie and clears it', async () => {
    const cookie = await t.loginAdmin();
    const res = await t.request('POST', '/api/v1/auth/logout', { cookie });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/palisade_session=;/);
    const me = await t.request('GET', '/api/v1/me', { cookie });
    expect(me.statusCode).toBe(401);
    expect(problemOf(me).code).toBe('auth.unauthenticated');
    // Logging out without a session is harmless.
    expect((await t.request('POST', '/api/v1/auth/logout')).statusCode).toBe(204);
  });

  it('an expired session is refused; an active one slides its expiry forward', async () => {
    const cookie = await t.loginAdmin();
    const rows = async () =>
      (
        (await t.database.db.execute(sql`select id, expires_at, last_seen_at from sessions order by created_at`)) as unknown as {
          rows: { id: string; expires_at: Date; last_seen_at: Date }[];
        }
      ).rows;
    // Seen long ago: the next request pushes expiry out again.
    await t.database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '1 hour', expires_at = now() + interval '1 minute'`,
    );
    const slid = await t.request('GET', '/api/v1/me', { cookie });
    expect(slid.statusCode).toBe(200);
    // …and the cookie is sent again with a full lifetime, so the browser keeps it as long.
    const again = String(slid.headers['set-cookie']);
    expect(again).toContain(cookie);
    expect(again).toMatch(/Max-Age=\d{4,}/);
    expect(again).toMatch(/HttpOnly/);
    // A session seen a moment ago is not refreshed (nor its cookie re-sent).
    expect((await t.request('GET', '/api/v1/me', { cookie })).headers['set-cookie']).toBeUndefined();
    const id = sha256(cookie.replace(/^palisade_session=/, ''));
    const mine = (await rows()).find((r) => r.id === id);
    expect(new Date(mine?.expires_at ?? 0).getTime()).toBeGreaterThan(Date.now() + 3600_000);
    // Expired: refused even though the row is still there.
    await t.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second'`);
    expect(problemOf(await t.request('GET', '/api/v1/me', { cookie })).code).toBe('auth.unauthenticated');
    expect(await t.app.services.auth.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await rows()).toEqual([]);
  });

  it('a disabled user cannot log in', async () => {
    const bob = await t.newUser(admin, 'bob');
    const res = await t.request('PUT', '/api/v1/user/bob', {
      cookie: admin,
      payload: { username: 'bob', first_name: 'B', last_name: 'B', email: bob.email, is_active: false },
    });
    expect(res.statusCode).toBe(200);
    const denied = await login('bob', USER_PASSWORD);
    expect(denied.statusCode).toBe(401);
    expect(denied.headers['set-cookie']).toBeUndefined();
  });

  it('a user with MFA gets 201 and a half session that only MFA routes accept', async () => {
    await t.newUser(admin, 'carol');
    await t.database.db.execute(sql`update users set mfa_enabled = true, mfa_method = 'totp' where username = 'carol'`);
    await t.database.db.execute(sql`insert into mfa_methods (user_id, method) select id, 'totp' from users where username = 'carol'`);
    const res = await login('carol', USER_PASSWORD);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ mfa: { methods: ['totp'], default_method: 'totp' } });
    const me = await t.request('GET', '/api/v1/me', { cookie: cookieOf(res) });
    expect(me.statusCode).toBe(401);
    expect(problemOf(me).code).toBe('auth.mfa_required');
  });

  it('GET /me returns the signed-in user; anonymous is 401', async () => {
    const me = await t.request('GET', '/api/v1/me', { cookie: admin });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ username: 'admin', is_admin: true, has_password: true });
    expect(me.json()).not.toHaveProperty('phone');
    expect(me.body).not.toMatch(/password_hash|passwordHash/);
    const anon = await t.request('GET', '/api/v1/me');
    expect(anon.statusCode).toBe(401);
    expect(problemOf(anon).code).toBe('auth.unauthenticated');
    expect((await t.request('GET', '/api/v1/me', { cookie: 'palisade_session=forged-token' })).statusCode).toBe(401);
  });

  it('GET /info answers signed-in users with the version; anonymous is 401', async () => {
    const cookie = await (async () => {
      await t.newUser(admin, 'dave');
      return t.login('dave', USER_PASSWORD);
    })();
    const res = await t.request('GET', '/api/v1/info', { cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ version: expect.any(String), network_present: false, smtp_enabled: false });
    expect((await t.request('GET', '/api/v1/info')).statusCode).toBe(401);
  });
});
