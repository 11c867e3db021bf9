import { drizzle } from 'drizzle-orm/node-postgres';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { IP_POLICY } from './auth.service.js';
import { LoginRepo } from './login.repo.js';

describe('login statements', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the success statement commits without waiting for the WAL flush, for its own transaction only', async () => {
    const pool = (t.database.db as unknown as { $client: Pool }).$client;
    const client = await pool.connect();
    const setting = async () =>
      (await client.query<{ value: string }>(`select current_setting('synchronous_commit') as value`)).rows[0]?.value;
    try {
      const repo = new LoginRepo(drizzle(client) as unknown as Db);
      const event = { actorType: 'system' as const, module: 'auth', type: 'auth.login_succeeded' };
      const input = { userId: 1, userKey: 'user:nobody', ipKey: 'ip:192.0.2.1', ipPolicy: IP_POLICY, event };
      expect(await setting()).toBe('on');
      await client.query('begin');
      await repo.succeed(input);
      // Inside the statement's transaction: off (a crash may lose this commit, never a count of failures).
      expect(await setting()).toBe('off');
      await client.query('commit');
      // The pooled connection keeps its default for every other statement.
      expect(await setting()).toBe('on');
      await repo.succeed(input);
      expect(await setting()).toBe('on');
    } finally {
      client.release();
    }
  });
});
