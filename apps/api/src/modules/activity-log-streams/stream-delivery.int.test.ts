import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { SecretBox } from '#src/lib/crypto.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { STREAM_DELIVERY } from '#src/jobs/stream-delivery.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { selfSignedCertificate, TestReceiver, waitFor } from './test-receiver.js';

const BASE = '/api/v1/activity_log_stream';

describe('activity log streams: delivery', () => {
  let t: TestApp;
  let admin: string;
  let receiver: TestReceiver;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: ['127.0.0.1/32'] } });
    receiver = new TestReceiver();
    await receiver.up();
  });
  afterEach(() => receiver.down());
  afterAll(() => t.close());

  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await t.request('POST', BASE, {
      cookie: admin,
      payload: { kind: 'vector_http', name: 'SIEM', url: receiver.url, ...extra },
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number };
  };
  const state = async (id: number) => {
    const list = (await t.request('GET', BASE, { cookie: admin })).json() as { id: number; state: Record<string, unknown> }[];
    return list.find((s) => s.id === id)?.state ?? {};
  };
  /** `count` events in transactions of `perTx`, like a busy API would record them. */
  const record = async (count: number, perTx: number, tag: string) => {
    for (let done = 0; done < count; done += perTx) {
      const events: DomainEvent[] = Array.from({ length: Math.min(perTx, count - done) }, (_, i) => ({
        type: 'user.modified',
        actor: { type: 'user', userId: 1, username: 'admin', ip: '192.0.2.7', userAgent: 'test-agent' },
        object: { type: 'user', id: 1, name: `${tag}-${done + i}` },
        subjectUserId: 1,
        details: { changed: ['first_name'] },
      }));
      await t.database.db.transaction((tx) => recordEvent(tx as unknown as Db, ...events));
    }
  };
  /**
   * Ids of the events the destination should have got, in delivery order: everything from its
   * own "created" event on. (Its cursor starts below the oldest transaction still running when it
   * was created, so it may also get a few events committed just before: those are allowed.)
   */
  const expectedIds = async () => {
    const all = await queryRows<{ id: number; type: string }>(
      t.database.db,
      sql`select id::float8 as id, type from events order by tx_id, id`,
    );
    const created = all.findLastIndex((e) => e.type === 'activity_log_stream.created');
    const firstReceived = all.findIndex((e) => e.id === receiver.events[0]?.id);
    return all.slice(firstReceived >= 0 && firstReceived < created ? firstReceived : created).map((e) => e.id);
  };
  /** Waits until the receiver holds at least `count` events after the destination's creation, then compares. */
  const expectDelivered = async (newEvents: number, ms: number) => {
    await waitFor(
      async () => (await expectedIds()).length > newEvents && receiver.events.length >= (await expectedIds()).length,
      ms,
      'all events',
    );
    const expected = await expectedIds();
    expect(receiver.events.map((e) => e.id)).toEqual(expected);
    return expected;
  };

  it('sends every event in order, in JSON-array batches of at most 500, with basic auth and the activity log field names', async () => {
    const { id } = await create({ username: 'vector', password: 'Pa55-word' });
    await record(1_200, 300, 'bulk');
    const expected = await expectDelivered(1_200, 20_000);
    const bulk = expected.slice(-1_200);
    expect(receiver.batches.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...receiver.batches.map((b) => b.body.length))).toBeLessThanOrEqual(500);
    for (const batch of receiver.batches) {
      expect(batch.authorization).toBe(`Basic ${Buffer.from('vector:Pa55-word').toString('base64')}`);
      expect(batch.contentType).toBe('application/json');
    }
    expect(receiver.events.find((e) => e.id === bulk[0])).toEqual({
      id: bulk[0],
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      actor_type: 'user',
      user_id: 1,
      username: 'admin',
      ip: '192.0.2.7',
      user_agent: 'test-agent',
      module: 'users',
      event: 'user.modified',
      object_type: 'user',
      object_id: '1',
      object_name: 'bulk-0',
      details: { changed: ['first_name'] },
    });
    await waitFor(async () => (await state(id)).lag === 0, 10_000, 'lag 0');
    expect(await state(id)).toEqual({ last_success_at: expect.any(String), lag: 0 });
  });

  it('keeps the batch while the receiver is down (lag and last error shown), then delivers everything in order once', async () => {
    await receiver.down();
    const { id } = await create();
    await record(30, 10, 'down');
    await waitFor(async () => (await state(id)).last_error !== undefined, 10_000, 'last_error');
    const down = await state(id);
    expect(down).toMatchObject({ last_error_at: expect.any(String), last_error: expect.stringMatching(/^network: /) });
    expect(down.lag).toBeGreaterThanOrEqual(31);
    expect(down.last_success_at).toBeUndefined();
    await new Promise((r) => setTimeout(r, 5_000)); // the receiver stays down for 5 s
    await record(20, 5, 'still-down');
    await receiver.up();
    await expectDelivered(50, 25_000);
    await waitFor(async () => (await state(id)).lag === 0, 10_000, 'lag 0');
    expect(await state(id)).toMatchObject({ last_success_at: expect.any(String), last_error: expect.stringMatching(/^network: /) });
  }, 60_000);

  it('treats a non-2xx answer as a failure: nothing is skipped, the status is the last error', async () => {
    receiver.status = 503;
    const { id } = await create();
    await record(5, 5, 'refused');
    await waitFor(async () => (await state(id)).last_error !== undefined, 10_000, 'last_error');
    expect(await state(id)).toMatchObject({ last_error: 'HTTP 503: unavailable', lag: expect.any(Number) });
    expect((await state(id)).lag).toBeGreaterThanOrEqual(6);
    receiver.status = 200;
    await expectDelivered(5, 20_000);
  }, 40_000);

  it('shows a password sealed with another key as the destination’s error, and sends nothing', async () => {
    const { id } = await create({ username: 'vector', password: 'Pa55-word' });
    const other = new SecretBox(Buffer.alloc(32, 7)).encrypt('Pa55-word');
    await t.database.db.execute(sql`update activity_log_streams set password_enc = ${other} where id = ${id}`);
    await record(2, 2, 'wrong-key');
    await waitFor(async () => (await state(id)).last_error !== undefined, 10_000, 'last_error');
    expect((await state(id)).last_error).toMatch(/cannot be decrypted/);
    expect(receiver.batches).toEqual([]);
  });

  it('sends from one replica at a time: two API processes on one database deliver each event once, in order', async () => {
    const replica = await createTestApp({}, { jobs: true }); // resets the database: sign in again
    try {
      admin = await t.loginAdmin();
      await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { egress_allow_cidrs: ['127.0.0.1/32'] } });
      receiver.delayMs = 300; // slow answers: a second sender would overlap and repeat a batch
      await create();
      // Events keep arriving for longer than both processes take to find the new destination.
      const until = Date.now() + 3 * STREAM_DELIVERY.rescanMs;
      let rounds = 0;
      while (Date.now() < until) {
        await record(20, 20, `replicas-${rounds++}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await expectDelivered(rounds * 20, 30_000);
    } finally {
      await replica.close();
    }
  }, 60_000);

  it('trusts the destination’s own CA for https, and fails with a TLS error without it', async () => {
    const tls = selfSignedCertificate();
    await receiver.down();
    receiver = new TestReceiver(tls);
    await receiver.up();
    const untrusted = await create({ name: 'no-ca' });
    await waitFor(async () => (await state(untrusted.id)).last_error !== undefined, 10_000, 'tls error');
    expect((await state(untrusted.id)).last_error).toMatch(/^tls: /);
    await t.request('DELETE', `${BASE}/${untrusted.id}`, { cookie: admin });
    await create({ name: 'with-ca', certificate: tls.cert });
    await record(3, 3, 'tls');
    await expectDelivered(3, 15_000);
  }, 40_000);
});
