import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mfaChallenges, users } from '#src/db/schema/index.js';
import { eventsAfter, lastEventId } from '#test/event-rows.js';
import { cookieOf, createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { SoftAuthenticator } from './soft-authenticator.js';

const ORIGIN = 'http://localhost:8080';

describe('security keys (WebAuthn)', () => {
  let t: TestApp;
  let admin: string;
  let carol: string;

  const register = async (key: SoftAuthenticator, cookie = carol, name = 'Blue key') => {
    const options = await t.request('POST', '/api/v1/auth/webauthn/init', { cookie });
    expect(options.statusCode).toBe(200);
    return t.request('POST', '/api/v1/auth/webauthn/finish', {
      cookie,
      payload: { name, response: key.register(options.json()) },
    });
  };
  /** Password step: answers the pending-MFA cookie. */
  const passwordStep = async () => {
    const res = await t.request('POST', '/api/v1/auth', { payload: { username: 'carol', password: USER_PASSWORD } });
    expect(res.statusCode).toBe(201);
    return cookieOf(res);
  };
  const signIn = async (key: SoftAuthenticator, pending: string, counter?: number) => {
    const options = await t.request('POST', '/api/v1/auth/webauthn/start', { cookie: pending });
    expect(options.statusCode).toBe(200);
    return t.request('POST', '/api/v1/auth/webauthn', {
      cookie: pending,
      payload: { response: key.authenticate(options.json(), counter) },
    });
  };

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: ORIGIN });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    carol = await t.createUser('carol');
  });
  afterAll(() => t.close());

  it('registers a key with a name: the method is enabled, recovery codes come once, the key is listed', async () => {
    const since = await lastEventId(t.database.db);
    const res = await register(new SoftAuthenticator(ORIGIN));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.key).toMatchObject({ name: 'Blue key' });
    expect(body.recovery_codes).toHaveLength(10);
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'carol'));
    expect(row).toMatchObject({ mfaEnabled: true, mfaMethod: 'webauthn' });
    const list = await t.request('GET', '/api/v1/user/carol/security_key', { cookie: carol });
    expect(list.json()).toEqual([expect.objectContaining({ id: body.key.id, name: 'Blue key' })]);
    expect((await eventsAfter(t.database.db, since)).map((e) => e.type)).toContain('mfa.security_key_added');
    // A second key adds no new recovery codes.
    const second = await register(new SoftAuthenticator(ORIGIN), carol, 'Spare');
    expect(second.statusCode).toBe(201);
    expect(second.json().recovery_codes).toBeUndefined();
  });

  it('refuses a second registration of the same key: Key is already registered', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    expect((await register(key)).statusCode).toBe(201);
    const again = problemOf(await register(key));
    expect(again).toMatchObject({ status: 409, code: 'mfa.key_registered' });
    expect(again.body.detail).toBe('Key is already registered');
  });

  it('refuses a response to another challenge, from another origin, or a challenge used twice', async () => {
    const options = (await t.request('POST', '/api/v1/auth/webauthn/init', { cookie: carol })).json();
    const stale = new SoftAuthenticator(ORIGIN).register(options);
    await t.request('POST', '/api/v1/auth/webauthn/init', { cookie: carol }); // a new challenge replaces it
    const wrong = problemOf(
      await t.request('POST', '/api/v1/auth/webauthn/finish', { cookie: carol, payload: { name: 'k', response: stale } }),
    );
    expect(wrong).toMatchObject({ status: 400, code: 'mfa.key_unreadable' });
    expect(wrong.body.detail).toBe('Failed to read key. Please try again.');

    const fresh = (await t.request('POST', '/api/v1/auth/webauthn/init', { cookie: carol })).json();
    const foreign = new SoftAuthenticator('https://evil.example').register(fresh);
    expect(
      problemOf(await t.request('POST', '/api/v1/auth/webauthn/finish', { cookie: carol, payload: { name: 'k', response: foreign } })).code,
    ).toBe('mfa.key_unreadable');
    // The challenge was spent by the failed attempt: a correct answer to it is refused too.
    const good = new SoftAuthenticator(ORIGIN).register(fresh);
    expect(
      problemOf(await t.request('POST', '/api/v1/auth/webauthn/finish', { cookie: carol, payload: { name: 'k', response: good } })).code,
    ).toBe('mfa.key_unreadable');
  });

  it('refuses an expired challenge', async () => {
    const options = (await t.request('POST', '/api/v1/auth/webauthn/init', { cookie: carol })).json();
    await t.database.db.update(mfaChallenges).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await t.request('POST', '/api/v1/auth/webauthn/finish', {
      cookie: carol,
      payload: { name: 'k', response: new SoftAuthenticator(ORIGIN).register(options) },
    });
    expect(problemOf(res).code).toBe('mfa.key_unreadable');
  });

  it('signs in with the key after the password; the sign counter must grow', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    expect((await register(key)).statusCode).toBe(201);
    const ok = await signIn(key, await passwordStep());
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.username).toBe('carol');
    const session = cookieOf(ok);
    expect((await t.request('GET', '/api/v1/me', { cookie: session })).statusCode).toBe(200);
    const listed = (await t.request('GET', '/api/v1/user/carol/security_key', { cookie: session })).json();
    expect(listed[0].last_used_at).toEqual(expect.any(String));

    // A cloned key replays an old counter value: refused like a wrong code.
    const pending = await passwordStep();
    const replay = problemOf(await signIn(key, pending, key.counter));
    expect(replay).toMatchObject({ status: 400, code: 'auth.invalid_code' });
    // Not a signed-in session either.
    expect((await t.request('GET', '/api/v1/me', { cookie: pending })).statusCode).toBe(401);
  });

  it('refuses a key that is not the user’s, and the sign-in step without the password step', async () => {
    expect((await register(new SoftAuthenticator(ORIGIN))).statusCode).toBe(201);
    const stranger = new SoftAuthenticator(ORIGIN);
    expect(problemOf(await signIn(stranger, await passwordStep())).code).toBe('auth.invalid_code');
    expect((await t.request('POST', '/api/v1/auth/webauthn/start')).statusCode).toBe(401);
    expect((await t.request('POST', '/api/v1/auth/webauthn/start', { cookie: carol })).statusCode).toBe(401);
  });

  it('deletes keys (self or admin); the last one disables the method', async () => {
    const first = (await register(new SoftAuthenticator(ORIGIN))).json().key.id as number;
    const second = (await register(new SoftAuthenticator(ORIGIN), carol, 'Spare')).json().key.id as number;
    const dave = await t.createUser('dave');
    expect((await t.request('DELETE', `/api/v1/user/carol/security_key/${first}`, { cookie: dave })).statusCode).toBe(403);
    // Another user's key id under one's own name is not found.
    expect(problemOf(await t.request('DELETE', `/api/v1/user/dave/security_key/${first}`, { cookie: dave })).code).toBe(
      'security_key.not_found',
    );
    expect((await t.request('DELETE', `/api/v1/user/carol/security_key/${first}`, { cookie: carol })).statusCode).toBe(204);
    let [row] = await t.database.db.select().from(users).where(eq(users.username, 'carol'));
    expect(row?.mfaEnabled).toBe(true);
    const since = await lastEventId(t.database.db);
    expect((await t.request('DELETE', `/api/v1/user/carol/security_key/${second}`, { cookie: admin })).statusCode).toBe(204);
    [row] = await t.database.db.select().from(users).where(eq(users.username, 'carol'));
    expect(row).toMatchObject({ mfaEnabled: false, mfaMethod: null });
    expect((await eventsAfter(t.database.db, since)).map((e) => e.type)).toContain('mfa.security_key_removed');
    expect(problemOf(await t.request('DELETE', `/api/v1/user/carol/security_key/${second}`, { cookie: admin })).status).toBe(404);
    expect(problemOf(await t.request('DELETE', '/api/v1/user/carol/security_key/abc', { cookie: admin })).status).toBe(400);
  });
});
