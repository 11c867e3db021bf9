import { sql } from 'drizzle-orm';
import { queryRows } from '#src/db/rows.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';

interface Row {
  at: string;
  type: string;
  module: string;
  userId?: number | null;
  username?: string | null;
  subject?: number | null;
  object?: string | null;
  ip?: string | null;
  device?: string | null;
}

describe('GET /activity_log', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let aliceId: number;
  let bobId: number;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const insert = async (rows: Row[]) => {
    for (const r of rows) {
      await t.database.db.execute(sql`insert into events (occurred_at, actor_type, user_id, username, module, type,
        object_type, object_name, ip, device_name, subject_user_id)
        values (${r.at}::timestamptz, ${r.userId ? 'user' : 'system'}, ${r.userId ?? null}, ${r.username ?? null}, ${r.module},
          ${r.type}, ${r.object ? 'user' : null}, ${r.object ?? null}, ${r.ip ?? null}, ${r.device ?? null}, ${r.subject ?? null})`);
    }
  };
  const get = async (cookie: string, query: Record<string, string | string[]> = {}) => {
    const res = await t.request('GET', '/api/v1/activity_log', { cookie, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: { id: number; event: string; username?: string; object_name?: string }[]; total: number };
  };
  const names = (page: { items: { object_name?: string }[] }) => page.items.map((i) => i.object_name);

  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    await t.createUser('bob');
    const ids = await queryRows<{ id: number; username: string }>(t.database.db, sql`select id, username from users`);
    aliceId = ids.find((u) => u.username === 'alice')!.id;
    bobId = ids.find((u) => u.username === 'bob')!.id;
    await t.database.db.execute(sql`delete from events`);
    // a: admin acts on alice; b: alice herself; c: bob himself; d: system; e: admin on bob.
    await insert([
      { at: '2026-01-01T10:00:00Z', type: 'user.modified', module: 'users', userId: 1, username: 'admin', subject: aliceId, object: 'a' },
      {
        at: '2026-01-02T10:00:00Z',
        type: 'auth.login_succeeded',
        module: 'auth',
        userId: aliceId,
        username: 'alice',
        object: 'b',
        ip: '192.0.2.7',
      },
      {
        at: '2026-01-03T10:00:00Z',
        type: 'device.added',
        module: 'devices',
        userId: bobId,
        username: 'bob',
        object: 'c',
        device: 'Bob-Laptop',
      },
      { at: '2026-01-04T10:00:00Z', type: 'gateway.connected', module: 'gateways', object: 'd' },
      {
        at: '2026-01-05T10:00:00Z',
        type: 'user.disabled',
        module: 'users',
        userId: 1,
        username: 'admin',
        subject: bobId,
        object: 'e_100%',
      },
    ]);
  });

  it('lists every entry to an admin, newest first by default, oldest first on request', async () => {
    expect(names(await get(admin))).toEqual(['e_100%', 'd', 'c', 'b', 'a']);
    expect(names(await get(admin, { sort: 'timestamp' }))).toEqual(['a', 'b', 'c', 'd', 'e_100%']);
    expect((await get(admin)).total).toBe(5);
  });

  it('shows a user only what they did and what concerns their account', async () => {
    const page = await get(alice);
    expect(names(page)).toEqual(['b', 'a']);
    expect(page.total).toBe(2);
    // Filters never widen the scope.
    expect(names(await get(alice, { user: 'bob' }))).toEqual([]);
    expect(names(await get(alice, { search: 'bob' }))).toEqual([]);
  });

  it('filters by each field alone', async () => {
    expect(names(await get(admin, { from: '2026-01-03T10:00:00Z' }))).toEqual(['e_100%', 'd', 'c']);
    expect(names(await get(admin, { to: '2026-01-02T10:00:00Z' }))).toEqual(['b', 'a']);
    expect(names(await get(admin, { user: ['ADMIN', 'bob'] }))).toEqual(['e_100%', 'c', 'a']);
    expect(names(await get(admin, { module: 'users' }))).toEqual(['e_100%', 'a']);
    expect(names(await get(admin, { event: ['device.added', 'gateway.connected'] }))).toEqual(['d', 'c']);
    expect(names(await get(admin, { search: 'LAPTOP' }))).toEqual(['c']);
    expect(names(await get(admin, { search: '192.0.2' }))).toEqual(['b']);
    expect(names(await get(admin, { search: 'login' }))).toEqual(['b']);
    expect(names(await get(admin, { search: 'Alice' }))).toEqual(['b']);
    // LIKE wildcards are literal ('_' is in the object name and in auth.login_succeeded).
    expect(names(await get(admin, { search: '%' }))).toEqual(['e_100%']);
    expect(names(await get(admin, { search: '_' }))).toEqual(['e_100%', 'b']);
  });

  it('combines filters', async () => {
    const page = await get(admin, { user: 'admin', module: 'users', from: '2026-01-02T00:00:00Z', to: '2026-01-06T00:00:00Z' });
    expect(names(page)).toEqual(['e_100%']);
    expect(page.total).toBe(1);
    expect(names(await get(admin, { module: ['users', 'auth'], search: 'ali', sort: 'timestamp' }))).toEqual(['b']);
    expect(names(await get(admin, { module: ['users', 'devices'], user: 'bob' }))).toEqual(['c']);
  });

  it('pages with a stable order and the total of the filter', async () => {
    await insert([{ at: '2026-01-05T10:00:00Z', type: 'user.enabled', module: 'users', object: 'tie' }]);
    const first = await get(admin, { per_page: '2', page: '1' });
    const second = await get(admin, { per_page: '2', page: '2' });
    const fourth = await get(admin, { per_page: '2', page: '4' });
    expect(first.total).toBe(6);
    // Same time: the later id first when newest first.
    expect([...names(first), ...names(second)]).toEqual(['tie', 'e_100%', 'd', 'c']);
    expect(fourth).toMatchObject({ items: [], total: 6, page: 4 });
  });

  it('returns the entry fields', async () => {
    const page = await get(admin, { search: 'laptop' });
    expect(page.items[0]).toMatchObject({
      actor_type: 'user',
      username: 'bob',
      user_id: bobId,
      module: 'devices',
      event: 'device.added',
      device_name: 'Bob-Laptop',
      timestamp: '2026-01-03T10:00:00.000Z',
      details: {},
    });
  });

  it('refuses bad filters with a 400', async () => {
    for (const query of <Record<string, string>[]>[
      { from: 'yesterday' },
      { to: '2026-13-01T00:00:00Z' },
      { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      { module: 'nope' },
      { event: 'user.exploded' },
      { per_page: '100000' },
      { sort: 'id' },
      { unknown: '1' },
    ]) {
      const res = await t.request('GET', '/api/v1/activity_log', { cookie: admin, query });
      expect(problemOf(res), JSON.stringify(query)).toMatchObject({ status: 400, code: 'validation.failed' });
    }
  });

  it('needs a session', async () => {
    const res = await t.request('GET', '/api/v1/activity_log');
    expect(problemOf(res).status).toBe(401);
  });
});
