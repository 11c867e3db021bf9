import { TOO_MANY_ATTEMPTS_DETAIL } from '@palisade/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mfaTotp, users } from '#src/db/schema/index.js';
import { sha256 } from '#src/lib/crypto.js';
import { cookieOf, createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';
import { enableTotp, passwordStep, totpCode } from '#test/mfa-fixtures.js';

describe('TOTP and the MFA sign-in step', () => {
  let t: TestApp;
  let admin: string;
  let carol: string;
  let carolId: number;

  const verify = (cookie: string | undefined, code: string, remoteAddress?: string) =>
    t.request('POST', '/api/v1/auth/totp/verify', { cookie, payload: { code }, ...(remoteAddress ? { remoteAddress } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { instance_name: 'Acme VPN' } });
    carol = await t.createUser('carol');
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'carol'));
    carolId = row?.id ?? 0;
  });
  afterAll(() => t.close());

  it('init gives a sealed secret and an otpauth URI for the instance; a first valid code enables it with 10 recovery codes', async () => {
    const init = await t.request('POST', '/api/v1/auth/totp/init', { cookie: carol });
    expect(init.statusCode).toBe(200);
    const { secret, uri } = init.json();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(uri).toBe(`otpauth://totp/Acme%20VPN:carol?secret=${secret}&issuer=Acme%20VPN`);
    const [stored] = await t.database.db.select().from(mfaTotp).where(eq(mfaTotp.userId, carolId));
    expect(stored?.secret).toMatch(/^v1\./);
    expect(stored?.secret).not.toContain(secret);
    // Not enabled before a code.
    expect((await t.request('GET', '/api/v1/auth/mfa', { cookie: carol })).json()).toMatchObject({ mfa_enabled: false, methods: [] });

    const wrong = await t.request('POST', '/api/v1/auth/totp', { cookie: carol, payload: { code: totpCode(secret, 5) } });
    expect(wrong.statusCode).toBe(400);
    expect(problemOf(wrong).body.detail).toBe('Code is invalid');
    const short = await t.request('POST', '/api/v1/auth/totp', { cookie: carol, payload: { code: '12345' } });
    expect(problemOf(short).code).toBe('validation.failed');
    expect(JSON.stringify(short.json())).toContain('mfa.code_digits');

    const enabled = await t.request('POST', '/api/v1/auth/totp', { cookie: carol, payload: { code: totpCode(secret) } });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().recovery_codes).toHaveLength(10);
    expect((await t.request('GET', '/api/v1/me', { cookie: carol })).json()).toMatchObject({ mfa_enabled: true, mfa_method: 'totp' });
    expect((await t.request('GET', '/api/v1/auth/mfa', { cookie: carol })).json()).toEqual({
      mfa_enabled: true,
      methods: ['totp'],
      default_method: 'totp',
      recovery_codes_left: 10,
    });
    // Setting up again while enabled is refused (disable first).
    expect(problemOf(await t.request('POST', '/api/v1/auth/totp/init', { cookie: carol })).code).toBe('mfa.method_enabled');
  });

  it('enabling without init is refused', async () => {
    const res = await t.request('POST', '/api/v1/auth/totp', { cookie: carol, payload: { code: '123456' } });
    expect(problemOf(res).code).toBe('mfa.totp_not_initialized');
  });

  it('signs in with a code: the pending session is replaced by an active one under a new token', async () => {
    const { secret } = await enableTotp(t, carol);
    const pending = await passwordStep(t, 'carol');
    const res = await verify(pending, totpCode(secret, 1));
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ username: 'carol', mfa_enabled: true });
    const active = cookieOf(res);
    expect(active).not.toBe(pending);
    expect((await t.request('GET', '/api/v1/me', { cookie: active })).statusCode).toBe(200);
    // The pending token is spent.
    expect((await t.request('GET', '/api/v1/me', { cookie: pending })).statusCode).toBe(401);
    const rows = await t.database.db.execute(
      sql`select type, details from events where type = 'auth.login_succeeded' and details ? 'mfa_method' order by id desc limit 1`,
    );
    expect((rows as unknown as { rows: { details: Record<string, unknown> }[] }).rows[0]?.details).toEqual({ mfa_method: 'totp' });
  });

  it('a code once accepted is refused again (replay), also for an earlier step', async () => {
    const { secret } = await enableTotp(t, carol);
    const code = totpCode(secret, 1);
    expect((await verify(await passwordStep(t, 'carol'), code)).statusCode).toBe(200);
    const again = await verify(await passwordStep(t, 'carol'), code);
    expect(again.statusCode).toBe(400);
    expect(problemOf(again).code).toBe('auth.invalid_code');
    // The current step's code is older than the one accepted: refused too.
    expect((await verify(await passwordStep(t, 'carol'), totpCode(secret, 0))).statusCode).toBe(400);
  });

  it('codes outside ±1 step are refused', async () => {
    const { secret } = await enableTotp(t, carol);
    await t.database.db.update(mfaTotp).set({ lastStep: null }).where(eq(mfaTotp.userId, carolId));
    const pending = await passwordStep(t, 'carol');
    expect((await verify(pending, totpCode(secret, 3))).statusCode).toBe(400);
    expect((await verify(pending, totpCode(secret, -3))).statusCode).toBe(400);
    expect((await verify(pending, totpCode(secret, -1))).statusCode).toBe(200);
  });

  it('the MFA step without the password step, or with an active session, is 401', async () => {
    const { secret } = await enableTotp(t, carol);
    const none = await verify(undefined, totpCode(secret, 1));
    expect(none.statusCode).toBe(401);
    expect((await verify(carol, totpCode(secret, 1))).statusCode).toBe(401);
    expect((await verify('palisade_session=forged', totpCode(secret, 1))).statusCode).toBe(401);
  });

  it('the pending state is bound to its browser: another cookie cannot finish it', async () => {
    const { secret } = await enableTotp(t, carol);
    const pendingA = await passwordStep(t, 'carol');
    // Browser B signed in with its own password step gets its own pending state, not A's.
    const pendingB = await passwordStep(t, 'carol');
    expect(pendingB).not.toBe(pendingA);
    expect((await verify(undefined, totpCode(secret, 1))).statusCode).toBe(401);
    const okA = await verify(pendingA, totpCode(secret, 1));
    expect(okA.statusCode).toBe(200);
    // A's cookie is spent; B's pending session never became active.
    expect((await t.request('GET', '/api/v1/me', { cookie: pendingB })).statusCode).toBe(401);
  });

  it('a pending session expires after 5 minutes', async () => {
    const { secret } = await enableTotp(t, carol);
    const pending = await passwordStep(t, 'carol');
    const id = sha256(pending.replace('palisade_session=', ''));
    await t.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second' where id = ${id}`);
    expect((await verify(pending, totpCode(secret, 1))).statusCode).toBe(401);
  });

  it('a pending session is refused by every non-MFA route', async () => {
    await enableTotp(t, carol);
    const pending = await passwordStep(t, 'carol');
    for (const [method, url] of [
      ['GET', '/api/v1/me'],
      ['GET', '/api/v1/auth/mfa'],
      ['POST', '/api/v1/auth/totp/init'],
      ['POST', '/api/v1/auth/recovery/codes'],
      ['GET', '/api/v1/user/carol'],
    ] as const) {
      const res = await t.request(method, url, { cookie: pending });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('wrong codes count against the login lockout: 429 with the spec message, then even a valid code is refused', async () => {
    const { secret } = await enableTotp(t, carol);
    const pending = await passwordStep(t, 'carol', '203.0.113.7');
    const wrong = totpCode(secret, 4) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await verify(pending, wrong, '203.0.113.7');
      expect(res.statusCode, `attempt ${i + 1}`).toBe(400);
      expect(problemOf(res).body.detail).toBe('Code is invalid');
    }
    const locked = await verify(pending, totpCode(secret, 1), '203.0.113.7');
    expect(locked.statusCode).toBe(429);
    expect(problemOf(locked).body.detail).toBe(TOO_MANY_ATTEMPTS_DETAIL);
    // The password step is locked for the account as well.
    const login = await t.request('POST', '/api/v1/auth', { payload: { username: 'carol', password: 'whatever' } });
    expect(login.statusCode).toBe(429);
  });

  it('bad input to the sign-in steps is a 400 problem, never a 5xx, and counts no attempt', async () => {
    await enableTotp(t, carol);
    const pending = await passwordStep(t, 'carol');
    const bodies: unknown[] = [{}, { code: 123456 }, { code: null }, { code: 'x'.repeat(100_000) }, { code: '123456', extra: 1 }, []];
    for (const url of ['/api/v1/auth/totp/verify', '/api/v1/auth/recovery']) {
      for (const payload of bodies) {
        const res = await t.request('POST', url, { cookie: pending, payload: payload as object });
        expect(res.statusCode, `${url} ${JSON.stringify(payload).slice(0, 40)}`).toBe(400);
        expect(problemOf(res).code).toBe('validation.failed');
      }
      if (url.endsWith('/verify')) {
        const digits = await t.request('POST', url, { cookie: pending, payload: { code: '12 34 5' } });
        expect(JSON.stringify(digits.json())).toContain('mfa.code_digits');
      }
      const malformed = await t.request('POST', url, {
        cookie: pending,
        payload: '{"code":',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.statusCode).toBe(400);
    }
    // Bad requests only, and the account is not locked (validation runs before the lockout counter).
    const [failures] = (
      (await t.database.db.execute(
        sql`select count(*)::int as n from auth_failures where key = 'user:carol' and failures > 0`,
      )) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expect(failures?.n).toBe(0);
  });

  it('DELETE /auth/totp disables it; the last method turns MFA off and sign-in needs only the password', async () => {
    await enableTotp(t, carol);
    const res = await t.request('DELETE', '/api/v1/auth/totp', { cookie: carol });
    expect(res.statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/me', { cookie: carol })).json()).toMatchObject({ mfa_enabled: false });
    expect(await t.database.db.select().from(mfaTotp).where(eq(mfaTotp.userId, carolId))).toEqual([]);
    const login = await t.request('POST', '/api/v1/auth', { payload: { username: 'carol', password: 'Passw0rd!user' } });
    expect(login.statusCode).toBe(200);
  });
});
