import { sql } from 'drizzle-orm';
import { queryRows } from '#src/db/rows.js';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '#src/db/client.js';
import { createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';
import { ActivityLogService } from './activity-log.service.js';

interface Feed {
  items: { id: number; object_name?: string }[];
  cursor: string;
}

describe('GET /activity_log/feed', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let aliceId: number;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const add = (db: Db, name: string, userId: number | null = null) =>
    db.execute(sql`insert into events (actor_type, user_id, module, type, object_name)
      values (${userId ? 'user' : 'system'}, ${userId}, 'users', 'user.modified', ${name})`);
  const feed = async (cookie: string, query: Record<string, string> = {}): Promise<Feed> => {
    const res = await t.request('GET', '/api/v1/activity_log/feed', { cookie, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const names = (f: Feed) => f.items.map((i) => i.object_name);
  /**
   * Polls from `cursor` until `count` entries came (or 10 s passed). Rows become readable only
   * once every older transaction in the cluster has finished, and other test files' transactions
   * count too, so a test waits for them instead of expecting them on the first read.
   */
  const collect = async (cookie: string, cursor: string, count: number, limit?: string) => {
    const seen: (string | undefined)[] = [];
    const deadline = Date.now() + 10_000;
    while (seen.length < count && Date.now() < deadline) {
      const page = await feed(cookie, { cursor, ...(limit ? { limit } : {}) });
      seen.push(...names(page));
      cursor = page.cursor;
      if (page.items.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    return { seen, cursor };
  };
  /** The first page, once the latest `count` entries are all visible. */
  const start = async (cookie: string, count: number) => {
    const deadline = Date.now() + 10_000;
    let page = await feed(cookie);
    while (page.items.length < count && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      page = await feed(cookie);
    }
    return page;
  };

  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    const [row] = await queryRows<{ id: number }>(t.database.db, sql`select id from users where username = 'alice'`);
    aliceId = row!.id;
    await t.database.db.execute(sql`delete from events`);
  });

  it('starts with the latest entries, newest last, then returns only what came after', async () => {
    for (let i = 1; i <= 60; i++) await add(t.database.db, `e${i}`);
    const first = await start(admin, 50);
    expect(first.items).toHaveLength(50);
    expect(names(first).at(0)).toBe('e11');
    expect(names(first).at(-1)).toBe('e60');
    expect(names(await feed(admin, { cursor: first.cursor }))).toEqual([]);
    await add(t.database.db, 'e61');
    await add(t.database.db, 'e62');
    const next = await collect(admin, first.cursor, 2);
    expect(next.seen).toEqual(['e61', 'e62']);
    expect(names(await feed(admin, { cursor: next.cursor }))).toEqual([]);
    // A limit pages a backlog in order.
    const one = await feed(admin, { cursor: first.cursor, limit: '1' });
    expect(names(one)).toEqual(['e61']);
    expect(names(await feed(admin, { cursor: one.cursor, limit: '1' }))).toEqual(['e62']);
  });

  it('neither loses nor repeats an entry whose transaction commits after a later one', async () => {
    const head = await feed(admin);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inserted!: () => void;
    const insertedP = new Promise<void>((r) => {
      inserted = r;
    });
    const slow = t.database.db.transaction(async (tx) => {
      await add(tx as unknown as Db, 'slow');
      inserted();
      await held;
    });
    await insertedP;
    await add(t.database.db, 'fast');
    // 'fast' committed, but handing it out now would move the cursor past 'slow'.
    const early = await feed(admin, { cursor: head.cursor });
    expect(names(early)).toEqual([]);
    release();
    await slow;
    const late = await collect(admin, early.cursor, 2);
    expect(late.seen).toEqual(['slow', 'fast']);
    expect(names(await feed(admin, { cursor: late.cursor }))).toEqual([]);
    // A client that reconnects with an older cursor gets the same rows again, never others.
    expect(names(await feed(admin, { cursor: head.cursor }))).toEqual(['slow', 'fast']);
  });

  it('scopes the feed like the list and moves the cursor past rows the user may not see', async () => {
    await add(t.database.db, 'before-mine', aliceId);
    await add(t.database.db, 'before-others');
    await t.database.db.execute(sql`insert into events (actor_type, user_id, module, type, object_name, subject_user_id)
      values ('user', 1, 'users', 'user.modified', 'about-her', ${aliceId})`);
    const first = await start(alice, 2);
    expect(names(first)).toEqual(['before-mine', 'about-her']);
    await add(t.database.db, 'admin-only');
    await add(t.database.db, 'mine', aliceId);
    await add(t.database.db, 'admin-only-2');
    const all = await collect(admin, first.cursor, 3);
    expect(all.seen).toEqual(['admin-only', 'mine', 'admin-only-2']);
    const next = await feed(alice, { cursor: first.cursor });
    expect(names(next)).toEqual(['mine']);
    expect(names(await feed(alice, { cursor: next.cursor }))).toEqual([]);
    // Her cursor moved past the rows she cannot see (so polls do not scan them again).
    expect(names(await feed(admin, { cursor: next.cursor }))).toEqual([]);
  });

  it('long-polls: a waiting request returns as soon as an entry commits', async () => {
    const head = await feed(admin);
    const began = Date.now();
    const waiting = feed(admin, { cursor: head.cursor, wait: '1' });
    await new Promise((r) => setTimeout(r, 300));
    await add(t.database.db, 'woken');
    const page = await waiting;
    expect(names(page)).toEqual(['woken']);
    // Well before the 25 s a request with nothing new is held.
    expect(Date.now() - began).toBeLessThan(10_000);
  });

  it('stops waiting when the client goes away', async () => {
    const service = new ActivityLogService(t.database.db, t.app.eventSignal);
    const head = (await feed(admin)).cursor;
    const gone = new AbortController();
    const began = Date.now();
    const waiting = service.feed({ userId: 1, username: 'admin', isAdmin: true }, { cursor: head, limit: 100, wait: '1' }, gone.signal);
    setTimeout(() => gone.abort(), 200);
    expect(await waiting).toEqual({ items: [], cursor: expect.any(String) });
    expect(Date.now() - began).toBeLessThan(3_000);
  });

  it('ends a held request when its HTTP client disconnects', async () => {
    const head = (await feed(admin)).cursor;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const spy = vi.spyOn(ActivityLogService.prototype, 'feed');
    try {
      const client = httpRequest({
        host: '127.0.0.1',
        port,
        path: `/api/v1/activity_log/feed?cursor=${head}&wait=1`,
        headers: { cookie: admin },
      });
      client.on('error', () => undefined);
      client.end();
      const deadline = Date.now() + 5_000;
      while (spy.mock.results.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 200));
      const began = Date.now();
      client.destroy();
      await spy.mock.results[0]?.value;
      // Without the disconnect the request would be held for 25 s.
      expect(Date.now() - began).toBeLessThan(1_000);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a cursor it did not hand out', async () => {
    for (const cursor of ['abc', '1:2:3', '99999999999999999999:1', '1:99999999999999999', '']) {
      const res = await t.request('GET', '/api/v1/activity_log/feed', { cookie: admin, query: { cursor } });
      expect(problemOf(res), cursor).toMatchObject({ status: 400, code: 'validation.failed' });
    }
    for (const query of <Record<string, string>[]>[{ limit: '0' }, { limit: '501' }, { wait: 'yes' }]) {
      const res = await t.request('GET', '/api/v1/activity_log/feed', { cookie: admin, query });
      expect(problemOf(res).status).toBe(400);
    }
  });
});
