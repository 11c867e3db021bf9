import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '#src/db/schema/index.js';
import { createTestApp, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { eventTail, type RecordedEvent } from '#test/identity-events.js';
import { USERNAME_POLICY } from './auth.service.js';

/** Sign-in events (issue "Domain events" §1): who, from where, about which account, and why a refusal. */
describe('auth events', () => {
  let t: TestApp;
  let admin: string;
  let tail: () => Promise<RecordedEvent[]>;
  let userId: number;
  const from = { remoteAddress: '203.0.113.7', headers: { 'user-agent': 'events-test/1.0' } };
  const login = (username: string, password: string, extra: { cookie?: string } = {}) =>
    t.request('POST', '/api/v1/auth', { payload: { username, password }, ...from, ...extra });

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    userId = (await t.newUser(admin, 'erin')).id as number;
    tail = eventTail(t);
    await tail();
  });
  afterAll(() => t.close());

  it('a successful login records the user as actor, with the IP and user agent; logout records the same user', async () => {
    const res = await login('erin', USER_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(await tail()).toEqual([
      expect.objectContaining({
        type: 'auth.login_succeeded',
        module: 'auth',
        actor_type: 'user',
        user_id: userId,
        username: 'erin',
        ip: '203.0.113.7',
        user_agent: 'events-test/1.0',
        object_type: 'user',
        object_id: String(userId),
        object_name: 'erin',
      }),
    ]);
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    expect((await t.request('POST', '/api/v1/auth/logout', { cookie, ...from })).statusCode).toBe(204);
    expect(await tail()).toEqual([
      expect.objectContaining({ type: 'auth.logout', actor_type: 'user', user_id: userId, username: 'erin', ip: '203.0.113.7' }),
    ]);
    // A logout without a live session ends nothing and records nothing.
    expect((await t.request('POST', '/api/v1/auth/logout', { cookie, ...from })).statusCode).toBe(204);
    expect(await tail()).toEqual([]);
  });

  it('a wrong password is an anonymous login_failed naming the account as typed, which its owner sees', async () => {
    expect((await login('ERIN', 'Wrong-pass1!')).statusCode).toBe(401);
    expect(await tail()).toEqual([
      expect.objectContaining({
        type: 'auth.login_failed',
        actor_type: 'anonymous',
        user_id: null,
        username: null,
        ip: '203.0.113.7',
        user_agent: 'events-test/1.0',
        object_type: 'user',
        object_id: String(userId),
        object_name: 'ERIN',
        subject_user_id: userId,
        details: { reason: 'invalid_credentials' },
      }),
    ]);
  });

  it('an unknown account is named as typed, cut to 64 characters, without an id; the password never appears', async () => {
    const typed = `${'x'.repeat(70)}@example.com`;
    expect((await login(typed, 'Secret-guess1!')).statusCode).toBe(401);
    const [event] = await tail();
    expect(event).toMatchObject({ type: 'auth.login_failed', object_id: null, subject_user_id: null, object_name: typed.slice(0, 64) });
    expect(JSON.stringify(event)).not.toContain('Secret-guess1!');
  });

  it('the right password of a disabled account is a login_failed with reason disabled, and no session', async () => {
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, userId));
    const res = await login('erin', USER_PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(await tail()).toEqual([
      expect.objectContaining({
        type: 'auth.login_failed',
        actor_type: 'anonymous',
        object_id: String(userId),
        details: { reason: 'disabled' },
      }),
    ]);
  });

  it('an attempt refused by the lockout records auth.locked_out, once per refused attempt', async () => {
    for (let i = 0; i < USERNAME_POLICY.limit; i++) expect((await login('erin', 'Wrong-pass1!')).statusCode).toBe(401);
    expect((await tail()).map((e) => e.type)).toEqual(Array(USERNAME_POLICY.limit).fill('auth.login_failed'));
    expect((await login('erin', USER_PASSWORD)).statusCode).toBe(429);
    expect((await login('erin', USER_PASSWORD)).statusCode).toBe(429);
    const locked = await tail();
    expect(locked).toEqual([
      expect.objectContaining({
        type: 'auth.locked_out',
        actor_type: 'anonymous',
        ip: '203.0.113.7',
        object_id: String(userId),
        subject_user_id: userId,
      }),
      expect.objectContaining({ type: 'auth.locked_out' }),
    ]);
  });
});
