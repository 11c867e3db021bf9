import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Pool } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import { mfaTotp, users } from '#src/db/schema/index.js';
import { sha256 } from '#src/lib/crypto.js';
import { IP_POLICY, USERNAME_POLICY } from '#src/modules/auth/auth.service.js';
import { cookieOf, createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { enableTotp, passwordStep, totpCode } from '#test/mfa-fixtures.js';
import { MfaStepRepo } from './mfa-step.repo.js';

/** The sign-in step's guarantees once its writes are one statement (issue 10 §6). */
describe('the MFA sign-in step as two statements', () => {
  let t: TestApp;
  let carol: string;
  let carolId: number;
  let secret: string;

  const pool = () => (t.database.db as unknown as { $client: Pool }).$client;
  const verify = (cookie: string, code: string) => t.request('POST', '/api/v1/auth/totp/verify', { cookie, payload: { code } });
  const rows = async <T>(query: ReturnType<typeof sql>) => (await t.database.db.execute(query)) as unknown as { rows: T[] };
  const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(query)).rows[0]?.n;
  const activeSessions = () => count(sql`select count(*)::int as n from sessions where user_id = ${carolId} and state = 'active'`);
  const mfaLogins = () =>
    count(
      sql`select count(*)::int as n from events where type = 'auth.login_succeeded' and details ? 'mfa_method' and user_id = ${carolId}`,
    );
  const lastStep = async () => (await t.database.db.select().from(mfaTotp).where(eq(mfaTotp.userId, carolId)))[0]?.lastStep ?? null;
  const pendingExists = (cookie: string) =>
    count(
      sql`select count(*)::int as n from sessions where id = ${sha256(cookie.replace('palisade_session=', ''))} and state = 'mfa_pending'`,
    );

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    carol = await t.createUser('carol');
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'carol'));
    carolId = row?.id ?? 0;
    ({ secret } = await enableTotp(t, carol));
    await t.database.db.update(mfaTotp).set({ lastStep: null }).where(eq(mfaTotp.userId, carolId));
  });
  afterAll(() => t.close());

  it('concurrent steps with the same code from several pending sessions: exactly one signs in', async () => {
    for (const offset of [0, 1]) {
      // Below the account's lockout limit (each attempt counts before the check).
      await t.database.db.execute(sql`delete from auth_failures`);
      const pending = await Promise.all([1, 2, 3, 4].map(() => passwordStep(t, 'carol')));
      const [sessionsBefore, loginsBefore] = [await activeSessions(), await mfaLogins()];
      const code = totpCode(secret, offset);
      const results = await Promise.all(pending.map((cookie) => verify(cookie, code)));
      expect(results.map((r) => r.statusCode).sort(), `offset ${offset}: ${results.map((r) => r.body).join(' ')}`).toEqual([
        200, 400, 400, 400,
      ]);
      expect(await activeSessions()).toBe((sessionsBefore ?? 0) + 1);
      expect(await mfaLogins()).toBe((loginsBefore ?? 0) + 1);
      // The losers' pending sessions are not spent: they may still try another code.
      const losers = pending.filter((_, i) => results[i]?.statusCode === 400);
      for (const cookie of losers) expect(await pendingExists(cookie)).toBe(1);
      await t.database.db.update(mfaTotp).set({ lastStep: null }).where(eq(mfaTotp.userId, carolId));
    }
  });

  it('concurrent steps on one pending session with codes of different steps: one signs in, the other marks nothing', async () => {
    for (let round = 0; round < 3; round++) {
      await t.database.db.execute(sql`delete from auth_failures`);
      await t.database.db.update(mfaTotp).set({ lastStep: null }).where(eq(mfaTotp.userId, carolId));
      const pending = await passwordStep(t, 'carol');
      const sessionsBefore = await activeSessions();
      const base = Math.floor(Date.now() / 30_000);
      const [a, b] = await Promise.all([verify(pending, totpCode(secret, -1)), verify(pending, totpCode(secret, 1))]);
      const statuses = [a.statusCode, b.statusCode];
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 401 || s === 400)).toBe(true);
      expect(await activeSessions()).toBe((sessionsBefore ?? 0) + 1);
      // The step marked is the winner's (a step boundary may pass between `base` and the codes).
      const winnerStep = a.statusCode === 200 ? base - 1 : base + 1;
      expect([winnerStep, winnerStep + 1]).toContain(await lastStep());
      expect(await pendingExists(pending)).toBe(0);
    }
  });

  it('a wrong code writes nothing but the attempt count (and its activity-log entry)', async () => {
    const pending = await passwordStep(t, 'carol');
    await t.database.db.execute(sql`delete from auth_failures`);
    const wrong = totpCode(secret, 5) === '000000' ? '111111' : '000000';
    const sessionsBefore = await activeSessions();
    expect((await verify(pending, wrong)).statusCode).toBe(400);
    expect(await count(sql`select failures as n from auth_failures where key = 'user:carol'`)).toBe(1);
    expect(await lastStep()).toBeNull();
    expect(await pendingExists(pending)).toBe(1);
    expect(await activeSessions()).toBe(sessionsBefore);
    // The same pending session then signs in with a right code.
    const ok = await verify(pending, totpCode(secret));
    expect(ok.statusCode).toBe(200);
    expect(cookieOf(ok)).not.toBe(pending);
    expect(await count(sql`select count(*)::int as n from auth_failures where key = 'user:carol'`)).toBe(0);
  });

  it('the success statement declines as a whole: a replayed step or a spent pending session writes nothing', async () => {
    const pending = await passwordStep(t, 'carol');
    const pendingId = sha256(pending.replace('palisade_session=', ''));
    await t.database.db.update(mfaTotp).set({ lastStep: 1000 }).where(eq(mfaTotp.userId, carolId));
    await t.database.db.execute(
      sql`insert into auth_failures (key, failures, window_started_at) values ('user:carol', 2, now()), ('ip:192.0.2.9', 2, now())`,
    );
    const snapshot = async () => ({
      sessions: await count(sql`select count(*)::int as n from sessions where user_id = ${carolId}`),
      events: await count(sql`select count(*)::int as n from events`),
      failures: await count(sql`select sum(failures)::int as n from auth_failures`),
      lastStep: await lastStep(),
    });
    const before = await snapshot();
    const repo = new MfaStepRepo(t.database.db);
    const input = (over: { pendingId?: string; totpStep: number | null }) => ({
      userId: carolId,
      userKey: 'user:carol',
      ipKey: 'ip:192.0.2.9',
      ipPolicy: IP_POLICY,
      pendingId,
      session: { id: sha256('new-token'), ip: '192.0.2.9', userAgent: null, expiresAt: new Date(Date.now() + 60_000) },
      event: { actorType: 'user' as const, userId: carolId, module: 'auth', type: 'auth.login_succeeded', details: { mfa_method: 'totp' } },
      ...over,
    });
    expect(await repo.succeed(input({ totpStep: 1000 }))).toEqual({ ok: false, reason: 'step_replayed' });
    expect(await repo.succeed(input({ totpStep: 999 }))).toEqual({ ok: false, reason: 'step_replayed' });
    // A later step, but the pending session is not there (spent, or another user's): no mark either.
    expect(await repo.succeed(input({ pendingId: sha256('other'), totpStep: 1001 }))).toEqual({ ok: false, reason: 'pending_spent' });
    expect(await repo.succeed(input({ pendingId: sha256('other'), totpStep: null }))).toEqual({ ok: false, reason: 'pending_spent' });
    expect(await snapshot()).toEqual(before);
    expect(await pendingExists(pending)).toBe(1);

    const done = await repo.succeed(input({ totpStep: 1001 }));
    expect(done).toMatchObject({ ok: true });
    expect(await snapshot()).toEqual({ sessions: before.sessions, events: (before.events ?? 0) + 1, failures: 1, lastStep: 1001 });
    expect(await pendingExists(pending)).toBe(0);
  });

  it('the step is three statements (session lookup, attempt count, success) and its count commits asynchronously', async () => {
    const pending = await passwordStep(t, 'carol');
    const p = pool();
    const original = p.query.bind(p);
    let statements = 0;
    p.query = ((...args: Parameters<Pool['query']>) => {
      statements++;
      return (original as (...a: unknown[]) => unknown)(...args);
    }) as Pool['query'];
    try {
      expect((await verify(pending, totpCode(secret))).statusCode).toBe(200);
    } finally {
      p.query = original;
    }
    expect(statements).toBe(3);

    const client = await p.connect();
    const setting = async () => (await client.query<{ v: string }>(`select current_setting('synchronous_commit') as v`)).rows[0]?.v;
    try {
      const repo = new MfaStepRepo(drizzle(client) as unknown as Db);
      await client.query('begin');
      const attempt = await repo.begin({ userId: carolId, username: 'carol' }, 'ip:192.0.2.10', { user: USERNAME_POLICY, ip: IP_POLICY });
      expect(attempt.totp?.secret).toMatch(/^v1\./);
      expect(attempt.userFailures).toBeGreaterThan(0);
      // Off for the attempt count's own transaction only; the pooled connection keeps its default.
      expect(await setting()).toBe('off');
      await client.query('commit');
      expect(await setting()).toBe('on');
    } finally {
      client.release();
    }
  });
});
