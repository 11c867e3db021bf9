import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mfaChallenges, mfaWebauthnKeys, users } from '#src/db/schema/index.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { eventsAfter, lastEventId } from '#test/event-rows.js';
import { createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { enableTotp, totpCode, wrongCode } from '#test/mfa-fixtures.js';
import { bodyOf, startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';
import { SoftAuthenticator } from './webauthn/soft-authenticator.js';

const ORIGIN = 'http://localhost:8080';

/**
 * Every code check outside the sign-in step counts against the login lockout (issue 10 §3), and
 * turning MFA off or an admin reset leaves no security key or pending code behind.
 */
describe('second-factor checks under the login lockout', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let carol: string;

  const passwordSignIn = () => t.request('POST', '/api/v1/auth', { payload: { username: 'carol', password: USER_PASSWORD } });
  /** Wrong answers of `attempt` until the lock: five 400 `auth.invalid_code`, then 429 (the user counter's limit). */
  const failUntilLocked = async (attempt: () => Promise<{ statusCode: number; json(): { code?: string } }>) => {
    for (let i = 1; i <= 5; i++) {
      const res = await attempt();
      expect([res.statusCode, res.json().code], `attempt ${i}`).toEqual([400, 'auth.invalid_code']);
    }
    const locked = await attempt();
    expect([locked.statusCode, locked.json().code]).toEqual([429, 'auth.too_many_attempts']);
  };
  const initTotp = async () => {
    const init = await t.request('POST', '/api/v1/auth/totp/init', { cookie: carol });
    expect(init.statusCode).toBe(200);
    return init.json().secret as string;
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ PUBLIC_URL: ORIGIN });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    smtp.received.length = 0;
    carol = await t.createUser('carol');
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('wrong codes enabling TOTP lock the account: then even the right code and the password sign-in get 429', async () => {
    const since = await lastEventId(t.database.db);
    const secret = await initTotp();
    await failUntilLocked(() => t.request('POST', '/api/v1/auth/totp', { cookie: carol, payload: { code: wrongCode(secret) } }));
    const right = await t.request('POST', '/api/v1/auth/totp', { cookie: carol, payload: { code: totpCode(secret) } });
    expect(problemOf(right)).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
    expect(problemOf(await passwordSignIn())).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
    const events = await eventsAfter(t.database.db, since);
    const failed = events.filter((e) => e.type === 'mfa.code_failed');
    expect(failed).toHaveLength(5);
    expect(failed[0]?.details).toMatchObject({ mfa_method: 'totp', action: 'totp_enable' });
    expect(events.some((e) => e.type === 'auth.locked_out')).toBe(true);
  });

  it('wrong codes enabling email codes lock the account', async () => {
    await new SettingsRepo(t.database.db).update({
      smtpServer: '127.0.0.1',
      smtpPort: smtp.port,
      smtpEncryption: 'none',
      smtpSender: 'vpn@example.com',
    });
    expect((await t.request('POST', '/api/v1/auth/email/init', { cookie: carol })).statusCode).toBe(204);
    const [mail] = await smtp.waitFor(1, 15_000);
    const code = /\b(\d{6})\b/.exec(bodyOf(mail?.raw ?? ''))?.[1] ?? '';
    const wrong = code === '000000' ? '000001' : '000000';
    await failUntilLocked(() => t.request('POST', '/api/v1/auth/email', { cookie: carol, payload: { code: wrong } }));
    expect((await t.request('POST', '/api/v1/auth/email', { cookie: carol, payload: { code } })).statusCode).toBe(429);
    expect(problemOf(await passwordSignIn())).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
  });

  it('wrong codes turning MFA off lock the account', async () => {
    const { secret } = await enableTotp(t, carol);
    await failUntilLocked(() => t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: { code: wrongCode(secret) } }));
    expect(problemOf(await passwordSignIn())).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
  });

  it('wrong passwords turning MFA off lock the account like wrong codes: then even the right password gets 429', async () => {
    await enableTotp(t, carol);
    const off = (password: string) => t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: { password } });
    for (let i = 1; i <= 5; i++) {
      const res = await off('Wrong-password-1');
      expect([res.statusCode, res.json().code], `attempt ${i}`).toEqual([400, 'auth.invalid_password']);
    }
    expect(problemOf(await off('Wrong-password-1'))).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
    expect(problemOf(await off(USER_PASSWORD))).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
    expect(problemOf(await passwordSignIn())).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
    expect((await t.request('GET', '/api/v1/auth/mfa', { cookie: carol })).json().mfa_enabled).toBe(true);
  });

  it('a passed check takes back only its own attempt: earlier failures stay counted', async () => {
    const secret = await initTotp();
    for (let i = 0; i < 4; i++) {
      const res = await t.request('POST', '/api/v1/auth/totp', { cookie: carol, payload: { code: wrongCode(secret) } });
      expect(res.statusCode).toBe(400);
    }
    // Not counted (else this fifth attempt would lock), not cleared (else one more failure would not lock).
    expect((await t.request('POST', '/api/v1/auth/totp', { cookie: carol, payload: { code: totpCode(secret) } })).statusCode).toBe(200);
    const off = (code: string) => t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: { code } });
    expect((await off(wrongCode(secret))).statusCode).toBe(400);
    expect(problemOf(await off(wrongCode(secret)))).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
  });

  it('an admin reset removes the security keys and pending challenges: the old key cannot pass a sign-in again', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const options = (await t.request('POST', '/api/v1/auth/webauthn/init', { cookie: carol })).json();
    const registered = await t.request('POST', '/api/v1/auth/webauthn/finish', {
      cookie: carol,
      payload: { name: 'Planted', response: key.register(options) },
    });
    expect(registered.statusCode).toBe(201);
    await t.request('POST', '/api/v1/auth/webauthn/init', { cookie: carol }); // a pending challenge
    const [carolRow] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'carol'));
    const carolId = carolRow?.id ?? 0;
    expect(await t.database.db.select().from(mfaChallenges).where(eq(mfaChallenges.userId, carolId))).toHaveLength(1);

    const admin = await t.loginAdmin();
    expect((await t.request('DELETE', '/api/v1/user/carol/mfa', { cookie: admin })).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/user/carol/security_key', { cookie: carol })).json()).toEqual([]);
    expect(await t.database.db.select().from(mfaWebauthnKeys).where(eq(mfaWebauthnKeys.userId, carolId))).toEqual([]);
    expect(await t.database.db.select().from(mfaChallenges).where(eq(mfaChallenges.userId, carolId))).toEqual([]);

    // Carol turns on TOTP again: the sign-in offers TOTP only, and the old key is refused.
    await enableTotp(t, carol);
    const step = await passwordSignIn();
    expect(step.statusCode).toBe(201);
    expect(step.json().mfa.methods).toEqual(['totp']);
    const pending = String(step.headers['set-cookie']).split(';')[0] ?? '';
    const start = await t.request('POST', '/api/v1/auth/webauthn/start', { cookie: pending });
    const assertion = key.authenticate({ challenge: start.json().challenge ?? 'none', rpId: 'localhost' });
    const signIn = await t.request('POST', '/api/v1/auth/webauthn', { cookie: pending, payload: { response: assertion } });
    expect(problemOf(signIn)).toMatchObject({ status: 400, code: 'auth.invalid_code' });
  });

  it('turning MFA off with the password removes the security keys too', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const options = (await t.request('POST', '/api/v1/auth/webauthn/init', { cookie: carol })).json();
    await t.request('POST', '/api/v1/auth/webauthn/finish', { cookie: carol, payload: { name: 'Blue', response: key.register(options) } });
    const off = await t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: { password: USER_PASSWORD } });
    expect(off.statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/user/carol/security_key', { cookie: carol })).json()).toEqual([]);
  });
});
