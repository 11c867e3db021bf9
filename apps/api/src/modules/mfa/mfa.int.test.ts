import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mfaRecoveryCodes, users } from '#src/db/schema/index.js';
import { cookieOf, createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { enableTotp, passwordStep, totpCode } from '#test/mfa-fixtures.js';

describe('recovery codes, the MFA switch and the admin reset', () => {
  let t: TestApp;
  let admin: string;
  let carol: string;
  let carolId: number;

  const recover = (cookie: string | undefined, code: string) => t.request('POST', '/api/v1/auth/recovery', { cookie, payload: { code } });
  const lastEvent = async (type: string) => {
    const result = await t.database.db.execute(
      sql`select type, user_id, object_id, subject_user_id, details from events where type = ${type} order by id desc limit 1`,
    );
    return (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    carol = await t.createUser('carol');
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'carol'));
    carolId = row?.id ?? 0;
  });
  afterAll(() => t.close());

  it('a recovery code signs in once; reusing it is refused; the codes are stored hashed', async () => {
    const { recoveryCodes } = await enableTotp(t, carol);
    const [first, second] = recoveryCodes as [string, string];
    const stored = await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, carolId));
    expect(stored.map((r) => r.codeHash)).not.toContain(first);

    const ok = await recover(await passwordStep(t, 'carol'), first);
    expect(ok.statusCode).toBe(200);
    expect((await t.request('GET', '/api/v1/me', { cookie: cookieOf(ok) })).statusCode).toBe(200);
    expect((await lastEvent('auth.login_succeeded'))?.details).toEqual({ mfa_method: 'recovery' });

    const reused = await recover(await passwordStep(t, 'carol'), first);
    expect(reused.statusCode).toBe(400);
    expect(problemOf(reused).code).toBe('auth.invalid_code');
    expect((await recover(await passwordStep(t, 'carol'), second.toUpperCase())).statusCode).toBe(200);
    expect((await t.request('GET', '/api/v1/auth/mfa', { cookie: carol })).json().recovery_codes_left).toBe(8);
  });

  it('a recovery code without the password step is 401', async () => {
    const { recoveryCodes } = await enableTotp(t, carol);
    expect((await recover(undefined, recoveryCodes[0] ?? '')).statusCode).toBe(401);
    expect((await recover(carol, recoveryCodes[0] ?? '')).statusCode).toBe(401);
  });

  it('regenerating replaces the codes (the old ones stop working); without MFA it is refused', async () => {
    expect(problemOf(await t.request('POST', '/api/v1/auth/recovery/codes', { cookie: carol })).code).toBe('mfa.not_enabled');
    const { recoveryCodes } = await enableTotp(t, carol);
    const res = await t.request('POST', '/api/v1/auth/recovery/codes', { cookie: carol });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);
    expect((await recover(await passwordStep(t, 'carol'), recoveryCodes[0] ?? '')).statusCode).toBe(400);
    expect((await recover(await passwordStep(t, 'carol'), fresh[0] ?? '')).statusCode).toBe(200);
    expect(await lastEvent('mfa.recovery_codes_generated')).toMatchObject({ user_id: carolId, object_id: String(carolId) });
  });

  it('PUT /auth/mfa sets the default among the enabled methods only', async () => {
    const notYet = await t.request('PUT', '/api/v1/auth/mfa', { cookie: carol, payload: { default_method: 'totp' } });
    expect(problemOf(notYet).code).toBe('mfa.method_not_enabled');
    await enableTotp(t, carol);
    const email = await t.request('PUT', '/api/v1/auth/mfa', { cookie: carol, payload: { default_method: 'email' } });
    expect(problemOf(email).code).toBe('mfa.method_not_enabled');
    const bad = await t.request('PUT', '/api/v1/auth/mfa', { cookie: carol, payload: { default_method: 'sms' } });
    expect(problemOf(bad).code).toBe('validation.failed');
    const ok = await t.request('PUT', '/api/v1/auth/mfa', { cookie: carol, payload: { default_method: 'totp' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ mfa_enabled: true, default_method: 'totp' });
    expect(await lastEvent('mfa.default_changed')).toMatchObject({ user_id: carolId, details: { method: 'totp' } });
  });

  it('DELETE /auth/mfa needs the password or a fresh code', async () => {
    const { secret } = await enableTotp(t, carol);
    const nothing = await t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: {} });
    expect(problemOf(nothing).code).toBe('validation.failed');
    const wrongPassword = await t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: { password: 'not-it' } });
    expect(problemOf(wrongPassword).code).toBe('auth.invalid_password');
    const wrongCode = await t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: { code: totpCode(secret, 4) } });
    expect(problemOf(wrongCode).code).toBe('auth.invalid_code');
    expect((await t.request('GET', '/api/v1/me', { cookie: carol })).json().mfa_enabled).toBe(true);

    const off = await t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: { code: totpCode(secret, 1) } });
    expect(off.statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/auth/mfa', { cookie: carol })).json()).toEqual({
      mfa_enabled: false,
      methods: [],
      recovery_codes_left: 0,
    });
    expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'carol', password: USER_PASSWORD } })).statusCode).toBe(200);
    expect(await lastEvent('mfa.disabled')).toMatchObject({ user_id: carolId });

    await enableTotp(t, carol);
    const byPassword = await t.request('DELETE', '/api/v1/auth/mfa', { cookie: carol, payload: { password: USER_PASSWORD } });
    expect(byPassword.statusCode).toBe(204);
  });

  it('an admin resets a user’s MFA; it is recorded for the user to see', async () => {
    await enableTotp(t, carol);
    expect((await t.request('DELETE', '/api/v1/user/carol/mfa', { cookie: carol })).statusCode).toBe(403);
    const res = await t.request('DELETE', '/api/v1/user/carol/mfa', { cookie: admin });
    expect(res.statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/user/carol', { cookie: admin })).json().mfa_enabled).toBe(false);
    expect(await lastEvent('mfa.reset')).toMatchObject({ object_id: String(carolId), subject_user_id: carolId });
    expect(problemOf(await t.request('DELETE', '/api/v1/user/nobody/mfa', { cookie: admin })).code).toBe('user.not_found');
    // Set up again from scratch (the old secret is gone).
    await enableTotp(t, carol);
  });
});
