import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import { ADMIN_DATABASE_URL } from '#test/db-urls.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { SYSTEM_ACTOR } from './event-actor.js';
import { EventsRepo } from './events.repo.js';
import { recordEvent } from './record-event.js';

describe('the events outbox', () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.db;
  });
  beforeEach(() => resetDatabase(t.database));
  afterAll(() => t.close());

  const settingsEvent = (name: string) => ({ type: 'settings.modified' as const, actor: SYSTEM_ACTOR, object: { type: 'settings', name } });

  /**
   * Reads after `start` until `count` events are readable: a transaction that has just committed
   * may still be running for `pg_stat_activity` for a moment, so wait with a deadline instead of
   * reading once.
   */
  async function readWhenVisible(repo: EventsRepo, start: Parameters<EventsRepo['readAfter']>[0], count: number) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const read = await repo.readAfter(start, 100);
      if (read.length >= count || Date.now() > deadline) return read;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('records in the caller transaction: a rollback records nothing', async () => {
    const repo = new EventsRepo(db);
    const start = await repo.headCursor();
    await db
      .transaction(async (tx) => {
        await recordEvent(tx as unknown as Db, settingsEvent('rolled back'));
        throw new Error('abort');
      })
      .catch(() => undefined);
    await db.transaction((tx) => recordEvent(tx as unknown as Db, settingsEvent('kept')));
    const read = await readWhenVisible(repo, start, 1);
    expect(read.map((e) => e.object_name)).toEqual(['kept']);
    expect(read[0]).toMatchObject({ module: 'settings', type: 'settings.modified', actor_type: 'system' });
  });

  it('does not let a consumer pass an event whose transaction is still open', async () => {
    const repo = new EventsRepo(db);
    const start = await repo.headCursor();
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inserted!: () => void;
    const insertedP = new Promise<void>((r) => {
      inserted = r;
    });
    // A transaction that writes first (lower id) and commits last.
    const slow = db.transaction(async (tx) => {
      await recordEvent(tx as unknown as Db, settingsEvent('slow'));
      inserted();
      await held;
    });
    await insertedP;
    await recordEvent(db, settingsEvent('fast'));
    const result = (await db.execute(sql`select count(*)::int as n from events`)) as unknown as { rows: { n: number }[] };
    const counted = result.rows;
    expect(counted[0]?.n).toBe(1);
    // The fast event committed, but reading it now would move the cursor past 'slow'.
    expect(await repo.readAfter(start, 100)).toEqual([]);
    release();
    await slow;
    const read = await readWhenVisible(repo, start, 2);
    expect(read.map((e) => e.object_name)).toEqual(['slow', 'fast']);
    const after = await repo.readAfter({ tx: read[1]!.tx_id, id: read[1]!.id }, 100);
    expect(after).toEqual([]);
  });

  it('is not held back by a transaction running in another database of the server', async () => {
    const repo = new EventsRepo(db);
    const start = await repo.headCursor();
    // A transaction with an id, open in another database: it can write no event here.
    const other = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select pg_current_xact_id()');
      await recordEvent(db, settingsEvent('while another database is busy'));
      const read = await repo.readAfter(start, 100);
      expect(read.map((e) => e.object_name)).toEqual(['while another database is busy']);
      // And a consumer created now starts after that event.
      expect(await repo.readAfter(await repo.headCursor(), 100)).toEqual([]);
    } finally {
      await other.query('rollback').catch(() => undefined);
      await other.end();
    }
  });

  it('a cursor taken inside a transaction that has written starts before that transaction', async () => {
    const repo = new EventsRepo(db);
    // Like creating a stream: its consumer's cursor and its "created" event in one transaction.
    const cursor = await db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      await recordEvent(tx, settingsEvent('created with its consumer'));
      // A later transaction commits meanwhile (a busy server): the snapshot's xmax passes this one.
      await recordEvent(db, settingsEvent('committed meanwhile'));
      return new EventsRepo(tx).headCursor();
    });
    const read = await readWhenVisible(repo, cursor, 2);
    expect(read.map((e) => e.object_name)).toEqual(['created with its consumer', 'committed meanwhile']);
  });

  it('leases a consumer to one owner at a time and advances only under the lease', async () => {
    const repo = new EventsRepo(db);
    const head = await repo.headCursor();
    await repo.ensureConsumer('test', head);
    expect(await repo.lease('test', 'a', 10_000)).toEqual(head);
    expect(await repo.lease('test', 'b', 10_000)).toBeUndefined();
    expect(await repo.advance('test', 'b', { tx: head.tx, id: 1 })).toBe(false);
    expect(await repo.advance('test', 'a', { tx: head.tx, id: 1 })).toBe(true);
    await repo.release('test', 'a');
    expect(await repo.lease('test', 'b', 10_000)).toEqual({ tx: head.tx, id: 1 });
  });
});
