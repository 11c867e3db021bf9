import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mfaRecoveryCodes, sessions, users } from '#src/db/schema/index.js';
import { sha256 } from '#src/lib/crypto.js';
import { cookieOf, createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';

describe('MFA core: pending sign-in state and enabled methods', () => {
  let t: TestApp;
  let admin: string;
  let carolId: number;

  const userRow = async () => {
    const [row] = await t.database.db.select().from(users).where(eq(users.id, carolId));
    if (!row) throw new Error('carol missing');
    return row;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    carolId = (await t.newUser(admin, 'carol')).id as number;
  });
  afterAll(() => t.close());

  it('enabling the first method turns MFA on with that default and returns 10 recovery codes, stored hashed', async () => {
    const codes = await t.database.db.transaction((tx) => t.app.mfa.enableMethod(tx, carolId, 'totp'));
    expect(codes.recoveryCodes).toHaveLength(10);
    expect(new Set(codes.recoveryCodes).size).toBe(10);
    expect(await userRow()).toMatchObject({ mfaEnabled: true, mfaMethod: 'totp' });
    const stored = await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, carolId));
    expect(stored).toHaveLength(10);
    const plain = new Set(codes.recoveryCodes);
    for (const row of stored) {
      expect(plain.has(row.codeHash)).toBe(false);
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    }
    // A second method keeps the default and generates no new codes.
    const second = await t.database.db.transaction((tx) => t.app.mfa.enableMethod(tx, carolId, 'email'));
    expect(second.recoveryCodes).toBeUndefined();
    expect(await userRow()).toMatchObject({ mfaEnabled: true, mfaMethod: 'totp' });
  });

  it('disabling the default moves it to another method; disabling the last turns MFA off and drops the codes', async () => {
    await t.database.db.transaction(async (tx) => {
      await t.app.mfa.enableMethod(tx, carolId, 'totp');
      await t.app.mfa.enableMethod(tx, carolId, 'email');
    });
    expect(await t.database.db.transaction((tx) => t.app.mfa.disableMethod(tx, carolId, 'totp'))).toEqual(['email']);
    expect(await userRow()).toMatchObject({ mfaEnabled: true, mfaMethod: 'email' });
    expect(await t.database.db.transaction((tx) => t.app.mfa.disableMethod(tx, carolId, 'email'))).toEqual([]);
    expect(await userRow()).toMatchObject({ mfaEnabled: false, mfaMethod: null });
    expect(await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, carolId))).toEqual([]);
  });

  it('a recovery code is accepted once, whatever its case, spaces or dashes', async () => {
    const { recoveryCodes } = await t.database.db.transaction((tx) => t.app.mfa.enableMethod(tx, carolId, 'totp'));
    const code = recoveryCodes?.[3] ?? '';
    expect(await t.app.mfa.useRecoveryCode(t.database.db, carolId, ` ${code.toUpperCase().replace('-', ' - ')} `)).toBe(true);
    expect(await t.app.mfa.useRecoveryCode(t.database.db, carolId, code)).toBe(false);
    expect(await t.app.mfa.useRecoveryCode(t.database.db, carolId, 'aaaaa-bbbbb')).toBe(false);
    expect(await t.app.mfa.recoveryCodesLeft(t.database.db, carolId)).toBe(9);
  });

  it('POST /auth for a user with MFA answers the enabled methods and a pending session that lives 5 minutes', async () => {
    await t.database.db.transaction(async (tx) => {
      await t.app.mfa.enableMethod(tx, carolId, 'email');
      await t.app.mfa.enableMethod(tx, carolId, 'totp');
    });
    const before = Date.now();
    const res = await t.request('POST', '/api/v1/auth', { payload: { username: 'carol', password: USER_PASSWORD } });
    expect(res.statusCode).toBe(201);
    // No user data until the second step: only the methods, the default first choice.
    expect(res.json()).toEqual({ mfa: { methods: ['totp', 'email'], default_method: 'email' } });
    const cookie = cookieOf(res);
    const token = cookie.replace('palisade_session=', '');
    const [session] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(token)));
    expect(session?.state).toBe('mfa_pending');
    const ttl = (session?.expiresAt.getTime() ?? 0) - before;
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 1000);
    // Not extended by use, even long after its start (the active-session touch does not apply).
    await t.database.db.execute(sql`update sessions set last_seen_at = now() - interval '10 minutes' where id = ${sha256(token)}`);
    const me = await t.request('GET', '/api/v1/me', { cookie });
    expect(problemOf(me).code).toBe('auth.mfa_required');
    const [after] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(token)));
    expect(after?.expiresAt.getTime()).toBe(session?.expiresAt.getTime());
    expect(me.headers['set-cookie']).toBeUndefined();
  });
});
