import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { USERNAME_POLICY } from '#src/modules/auth/auth.service.js';
import { REDEMPTION_LIMITS, RedemptionLimiter } from '#src/modules/enrollment/redemption-limiter.js';
import { createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';
import { AUTH_FAILURES_RETENTION_SECONDS, authFailuresPurgeJob, purgeAuthFailures } from './auth-failures-purge.js';
import { JOB_FACTORIES } from './jobs.js';

describe('the purge of spent rate-limit counters (auth_failures)', () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.db;
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    await db.execute(sql`delete from auth_failures`);
  });
  afterAll(() => t.close());

  /** A counter whose window began `windowAgo` seconds ago, locked until `lockedIn` seconds from now (null: no lock). */
  const add = (key: string, failures: number, windowAgo: number, lockedIn: number | null = null) =>
    db.execute(sql`insert into auth_failures (key, failures, window_started_at, locked_until)
      values (${key}, ${failures}, now() - make_interval(secs => ${windowAgo}),
        case when ${lockedIn}::int is null then null else now() + make_interval(secs => ${lockedIn}::int) end)`);
  const keys = async () => (await queryRows<{ key: string }>(db, sql`select key from auth_failures order by key`)).map((r) => r.key);
  const failuresOf = async (key: string) =>
    (await queryRows<{ failures: number }>(db, sql`select failures from auth_failures where key = ${key}`))[0]?.failures;

  it('keeps the longest window of every limiter', () => {
    expect(AUTH_FAILURES_RETENTION_SECONDS).toBe(15 * 60);
    expect(AUTH_FAILURES_RETENTION_SECONDS).toBeGreaterThanOrEqual(REDEMPTION_LIMITS.windowSeconds);
    expect(AUTH_FAILURES_RETENTION_SECONDS).toBeGreaterThanOrEqual(USERNAME_POLICY.windowSeconds);
  });

  it('deletes counters whose window is over and that hold no running lock, in batches; keeps recent and locked ones', async () => {
    const day = 86_400;
    for (let i = 0; i < 7; i += 1) await add(`redeem_ip:198.51.100.${i}`, 3, day);
    await add('user:old-lock-over', 5, day, -60);
    await add('user:recent', 2, 60);
    await add('ip:203.0.113.5', 30, 2 * day, 600);
    await add('redeem_token:edge', 1, AUTH_FAILURES_RETENTION_SECONDS - 30);

    expect(await purgeAuthFailures(db, { batch: 3 })).toBe(8);
    expect(await keys()).toEqual(['ip:203.0.113.5', 'redeem_token:edge', 'user:recent']);
    // Nothing left to do: a second pass deletes nothing.
    expect(await purgeAuthFailures(db)).toBe(0);
  });

  it('limits still apply after a purge: a running window keeps counting, a locked account stays locked', async () => {
    const limiter = new RedemptionLimiter(db, { perIp: 3, perToken: 100, windowSeconds: AUTH_FAILURES_RETENTION_SECONDS });
    for (let i = 0; i < 3; i += 1) await limiter.attempt('198.51.100.9', undefined);
    await add('redeem_ip:198.51.100.10', 50, 2 * AUTH_FAILURES_RETENTION_SECONDS);
    expect(await purgeAuthFailures(db)).toBe(1);
    await expect(limiter.attempt('198.51.100.9', undefined)).rejects.toMatchObject({ status: 429, code: 'request.rate_limited' });
    // The purged address starts over, as it would have with its window over.
    await limiter.attempt('198.51.100.10', undefined);
    expect(await failuresOf('redeem_ip:198.51.100.10')).toBe(1);

    await t.newUser(await t.loginAdmin(), 'lena');
    const signIn = (password: string) =>
      t.request('POST', '/api/v1/auth', { payload: { username: 'lena', password }, remoteAddress: '192.0.2.44' });
    for (let i = 0; i < USERNAME_POLICY.limit; i += 1) expect((await signIn('wrong-Password-1')).statusCode).toBe(401);
    // The lock began with the window: move both back beyond the retention, the lock still running.
    await db.execute(sql`update auth_failures set window_started_at = now() - interval '1 day' where key = 'user:lena'`);
    await purgeAuthFailures(db);
    expect(await keys()).toContain('user:lena');
    expect(problemOf(await signIn('wrong-Password-1')).status).toBe(429);
  });

  it('runs as a background job of every API process', () => {
    expect(JOB_FACTORIES).toContain(authFailuresPurgeJob);
  });
});
