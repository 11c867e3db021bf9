import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { ActivityLogRepo } from '#src/modules/activity-log/activity-log.repo.js';
import { EventsRepo } from '#src/modules/events/events.repo.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { activityLogPurgeJob, purgeActivityLog } from './activity-log-purge.js';
import { JOB_FACTORIES } from './jobs.js';

describe('the activity log purge', () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.db;
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    await db.execute(sql`delete from events`);
  });
  afterAll(() => t.close());

  /** `count` entries named `<name><i>`, `daysAgo` days old. */
  const add = (name: string, daysAgo: number, count = 1) =>
    db.execute(sql`insert into events (occurred_at, actor_type, module, type, object_name)
      select now() - make_interval(days => ${daysAgo}), 'system', 'settings', 'settings.modified', ${name} || g
      from generate_series(1, ${count}) g`);
  const left = async () =>
    (await queryRows<{ name: string }>(db, sql`select object_name as name from events order by id`)).map((r) => r.name);

  it('deletes entries older than the retention, in batches, and keeps the newer ones', async () => {
    await add('old', 100, 7);
    await add('edge', 89);
    await add('new', 1);
    expect(await purgeActivityLog(t.database, 90, { batch: 3, pauseMs: 1 })).toBe(7);
    expect(await left()).toEqual(['edge1', 'new1']);
  });

  it('keeps everything when the retention is 0', async () => {
    await add('old', 10_000);
    expect(await purgeActivityLog(t.database, 0)).toBe(0);
    expect(await left()).toEqual(['old1']);
  });

  it('keeps entries a consumer has not read yet', async () => {
    await add('read', 100);
    const [read] = await queryRows<{ tx: string; id: number }>(db, sql`select tx_id::text as tx, id::float8 as id from events`);
    await add('unread', 100, 2);
    // The consumer has handled 'read1' (its cursor) and nothing after it.
    await new EventsRepo(db).ensureConsumer('webhooks', { tx: read!.tx, id: read!.id });
    expect(await purgeActivityLog(t.database, 90)).toBe(0);
    await db.execute(sql`update event_consumers set cursor_tx = (select max(tx_id) from events), cursor_id = (select max(id) from events)`);
    expect(await purgeActivityLog(t.database, 90)).toBe(2);
    expect(await left()).toEqual(['unread2']);
  });

  it('does not hold up writers while a batch is being deleted', async () => {
    await add('old', 100, 50);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let deleted!: (n: number) => void;
    const deletedP = new Promise<number>((r) => {
      deleted = r;
    });
    const purge = db.transaction(async (tx) => {
      deleted(await new ActivityLogRepo(tx as unknown as Db).purgeBatch(90, undefined, 5_000));
      await held;
    });
    expect(await deletedP).toBe(50);
    // The delete is uncommitted; an insert on another connection goes through meanwhile.
    const began = Date.now();
    await add('written', 0);
    expect(Date.now() - began).toBeLessThan(2_000);
    release();
    await purge;
    expect(await left()).toEqual(['written1']);
  });

  it('runs on one replica at a time', async () => {
    await add('old', 100);
    const other = await t.database.withConnection(async (conn) => {
      await conn.execute(sql`select pg_advisory_lock(${ADVISORY_LOCKS.activityLogPurge})`);
      try {
        return await purgeActivityLog(t.database, 90);
      } finally {
        await conn.execute(sql`select pg_advisory_unlock(${ADVISORY_LOCKS.activityLogPurge})`);
      }
    });
    expect(other).toBeUndefined();
    expect(await left()).toEqual(['old1']);
    expect(await purgeActivityLog(t.database, 90)).toBe(1);
  });

  it('is one of the background jobs', () => {
    expect(JOB_FACTORIES).toContain(activityLogPurgeJob);
  });
});
