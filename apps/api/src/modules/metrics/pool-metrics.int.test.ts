import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, type Db, openDatabase } from '#src/db/client.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { ensureWorkerDatabase, resetDatabase } from '#test/helpers.js';
import { ApiMetrics, OUTBOX_LAG_DEADLINE_MS } from './api-metrics.js';
import { parseExposition, type Sample } from './exposition.js';

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const event = (name: string): DomainEvent => ({
  type: 'user.modified',
  actor: { type: 'system' },
  object: { type: 'user', id: 1, name },
  details: { changed: ['first_name'] },
});

describe('pool and outbox metrics', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: await ensureWorkerDatabase(), dataDir: '/nonexistent', poolSize: 2 });
    await resetDatabase(database);
  });
  afterAll(async () => {
    await database.db.execute(sql`delete from event_consumers where name = 'metrics-test-consumer'`);
    await database.close();
  });

  it('reports the exact number of events after the slowest consumer', async () => {
    const metrics = new ApiMetrics({ database, outboxLagCacheMs: 0 });
    await database.db.execute(sql`delete from event_consumers`);
    expect(value(parseExposition((await metrics.exposition()).toString()), 'palisade_event_outbox_lag')).toBe(0);
    // A consumer at the head, then 7 events it has not read.
    await database.db.execute(
      sql`insert into event_consumers (name, cursor_tx, cursor_id)
          select 'metrics-test-consumer', coalesce(max(tx_id), '0'::xid8), coalesce(max(id), 0) from events`,
    );
    await database.db.transaction((tx) => recordEvent(tx as unknown as Db, event('a'), event('b'), event('c')));
    await database.db.transaction((tx) => recordEvent(tx as unknown as Db, event('d'), event('e'), event('f'), event('g')));
    expect(value(parseExposition((await metrics.exposition()).toString()), 'palisade_event_outbox_lag')).toBe(7);
  });

  it('reports connections in use and waiting queries, and answers while the pool is exhausted', async () => {
    const metrics = new ApiMetrics({ database, outboxLagCacheMs: 0 });
    const first = parseExposition((await metrics.exposition()).toString());
    const counted = value(first, 'palisade_event_outbox_lag');
    expect(counted).toBeGreaterThanOrEqual(0);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = [database.withConnection(() => gate), database.withConnection(() => gate)];
    let waiting: Promise<unknown> = Promise.resolve();
    try {
      await until(() => database.poolStats?.().idle === 0 && database.poolStats?.().total === 2, 'both connections in use');
      // Drizzle's queries run when awaited: Promise.resolve starts this one now.
      waiting = Promise.resolve(database.db.execute(sql`select 1`));
      await until(() => (database.poolStats?.().waiting ?? 0) >= 1, 'a waiting query');
      // The outbox count waits for a connection too: the scrape answers after its deadline anyway,
      // with the last counted lag.
      const began = Date.now();
      const busy = parseExposition((await metrics.exposition()).toString());
      expect(Date.now() - began).toBeLessThan(OUTBOX_LAG_DEADLINE_MS + 5_000);
      expect(value(busy, 'palisade_db_pool_connections', { state: 'in_use' })).toBe(2);
      expect(value(busy, 'palisade_db_pool_connections', { state: 'idle' })).toBe(0);
      expect(value(busy, 'palisade_db_pool_waiting')).toBeGreaterThanOrEqual(1);
      expect(value(busy, 'palisade_event_outbox_lag')).toBe(counted);
    } finally {
      release();
      await Promise.all([...holders, waiting]);
    }
    await until(() => database.poolStats?.().waiting === 0, 'no waiting query');
    const after = parseExposition((await metrics.exposition()).toString());
    expect(value(after, 'palisade_db_pool_waiting')).toBe(0);
    // At most the scrape's own outbox count.
    expect(value(after, 'palisade_db_pool_connections', { state: 'in_use' })).toBeLessThanOrEqual(1);
  });
});
