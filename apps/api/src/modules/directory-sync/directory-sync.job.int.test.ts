import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import { queryRows } from '#src/db/rows.js';
import { createTestApp, type TestApp } from '#test/helpers.js';
import type { DirectoryData } from '#test/support/fake-directories/directory-data.js';
import { startFakeJumpCloud } from '#test/support/fake-directories/fake-jumpcloud.js';
import { saveProvider, TEST_SECRET_KEY } from '#test/support/fake-directories/provider-row.js';

const data: DirectoryData = {
  users: [{ id: 'u1', email: 'bob@example.com', active: false }],
  groups: [],
};

let t: TestApp;
let jc: Awaited<ReturnType<typeof startFakeJumpCloud>>;

beforeAll(async () => {
  jc = await startFakeJumpCloud(data, 'key');
  t = await createTestApp(
    { SECRET_KEY: TEST_SECRET_KEY },
    { jobs: true, directorySync: { tickMs: 100, endpoints: { jumpcloudApiUrl: jc.url } } },
  );
});

afterAll(async () => {
  await t?.close();
  await jc?.close();
});

const runs = async () => {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from events where type = 'directory.sync_completed'`,
  );
  return row?.n ?? 0;
};

/** Polls `check` until it holds or `ms` pass. */
async function waitFor(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('runs on its own when due, one run at a time, and not again before sync_interval', async () => {
  await t.createUser('bob');
  // Another replica holds the run lock: the job must wait for it.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked: () => void = () => undefined;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = t.database.withConnection(async (conn) => {
    await conn.execute(sql`select pg_advisory_lock(${ADVISORY_LOCKS.directorySync})`);
    locked();
    await held;
    await conn.execute(sql`select pg_advisory_unlock(${ADVISORY_LOCKS.directorySync})`);
  });
  await isLocked;
  await saveProvider(t.database.db, { kind: 'JumpCloud', jumpcloudApiKey: 'key', userBehavior: 'disable', syncInterval: 3600 });
  // The job ticks every 100 ms: the ticks of this window find the lock taken and leave the
  // directory alone. (A window, not a wait for a condition: under load it holds fewer ticks and
  // proves less, but it cannot fail a correct job.)
  const requestsBefore = jc.requests.length;
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(jc.requests.length).toBe(requestsBefore);
  expect(await runs()).toBe(0);
  release();
  await holder;

  await waitFor(async () => (await runs()) === 1);
  const bob = await t.request('GET', '/api/v1/user/bob', { cookie: await t.loginAdmin() });
  expect(bob.json().is_active).toBe(false);
  // Many more ticks pass; the next run is due only after an hour.
  const after = jc.requests.length;
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(jc.requests.length).toBe(after);
  expect(await runs()).toBe(1);
});
