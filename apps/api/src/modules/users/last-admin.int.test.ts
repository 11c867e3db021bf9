import { sql } from 'drizzle-orm';
import type { Pool } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  createTestApp,
  problemOf,
  resetDatabase,
  snapshot,
  type TestApp,
  updateBody,
  USER_PASSWORD,
} from '#test/helpers.js';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';

/** The last active administrator can never be removed, whatever the route or the interleaving. */
describe('last active admin invariant', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const adminUser = async () => (await t.request('GET', '/api/v1/user/admin', { cookie: admin })).json();
  const expectLastAdmin = (res: Parameters<typeof problemOf>[0]) =>
    expect(problemOf(res)).toMatchObject({ status: 409, code: 'user.last_admin' });

  /** A second admin `other` (in group admin), returning its session. */
  const secondAdmin = async (name = 'other') => {
    await t.newUser(admin, name);
    expect((await t.request('POST', '/api/v1/group/admin', { cookie: admin, payload: { username: name } })).statusCode).toBe(200);
    return t.login(name, USER_PASSWORD);
  };

  it('only changes that can remove an admin wait for the invariant lock; a new name does not', async () => {
    await t.newUser(admin, 'quinn');
    const quinn = (await t.request('GET', '/api/v1/user/quinn', { cookie: admin })).json();
    const pool = (t.database.db as unknown as { $client: Pool }).$client;
    const holder = await pool.connect();
    const waiters = async () =>
      (
        await holder.query<{ n: number }>(
          `select count(*)::int as n from pg_locks
            where locktype = 'advisory' and objid = $1 and not granted
              and database = (select oid from pg_database where datname = current_database())`,
          [ADVISORY_LOCKS.adminInvariant],
        )
      ).rows[0]?.n ?? 0;
    try {
      await holder.query('select pg_advisory_lock($1)', [ADVISORY_LOCKS.adminInvariant]);
      // Renaming cannot remove an admin: it completes while another session holds the lock.
      let done = false;
      const renaming = t
        .request('PUT', '/api/v1/user/quinn', { cookie: admin, payload: updateBody(quinn, { first_name: 'Q' }) })
        .finally(() => {
          done = true;
        });
      let waited = false;
      while (!done && !waited) waited = (await waiters()) > 0;
      if (waited) await holder.query('select pg_advisory_unlock($1)', [ADVISORY_LOCKS.adminInvariant]);
      expect(waited, 'the rename waited for the admin-invariant lock').toBe(false);
      expect((await renaming).statusCode).toBe(200);
      // Disabling can: it waits for the lock, and completes once it is released.
      const disabling = t.request('PUT', '/api/v1/user/quinn', { cookie: admin, payload: updateBody(quinn, { is_active: false }) });
      for (const deadline = Date.now() + 10_000; (await waiters()) === 0; await new Promise((r) => setTimeout(r, 20))) {
        if (Date.now() > deadline) throw new Error('the disabling update never waited for the lock');
      }
      await holder.query('select pg_advisory_unlock($1)', [ADVISORY_LOCKS.adminInvariant]);
      expect((await disabling).statusCode).toBe(200);
    } finally {
      await holder.query('select pg_advisory_unlock_all()').catch(() => undefined);
      holder.release();
    }
  });

  it('cannot be disabled', async () => {
    const before = await snapshot(t.database);
    expectLastAdmin(
      await t.request('PUT', '/api/v1/user/admin', { cookie: admin, payload: updateBody(await adminUser(), { is_active: false }) }),
    );
    expect(await snapshot(t.database)).toBe(before);
    expect((await t.request('GET', '/api/v1/me', { cookie: admin })).statusCode).toBe(200);
  });

  it('cannot leave the admin groups through a user update', async () => {
    await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: 'staff' } });
    const before = await snapshot(t.database);
    expectLastAdmin(
      await t.request('PUT', '/api/v1/user/admin', { cookie: admin, payload: updateBody(await adminUser(), { groups: ['staff'] }) }),
    );
    expectLastAdmin(
      await t.request('PUT', '/api/v1/user/admin', { cookie: admin, payload: updateBody(await adminUser(), { groups: [] }) }),
    );
    expect(await snapshot(t.database)).toBe(before);
  });

  it('cannot be removed from the admin group, by member removal or member replacement', async () => {
    const before = await snapshot(t.database);
    expectLastAdmin(await t.request('DELETE', '/api/v1/group/admin/user/admin', { cookie: admin }));
    expectLastAdmin(await t.request('PUT', '/api/v1/group/admin', { cookie: admin, payload: { name: 'admin', members: [] } }));
    expect(await snapshot(t.database)).toBe(before);
  });

  it("cannot lose the admin group's flag or the group itself", async () => {
    const before = await snapshot(t.database);
    expectLastAdmin(await t.request('PUT', '/api/v1/group/admin', { cookie: admin, payload: { name: 'admin', is_admin: false } }));
    expectLastAdmin(await t.request('DELETE', '/api/v1/group/admin', { cookie: admin }));
    expect(await snapshot(t.database)).toBe(before);
    // Renaming the group keeps the flag and is fine.
    const renamed = await t.request('PUT', '/api/v1/group/admin', { cookie: admin, payload: { name: 'Admins' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Admins', is_admin: true, members: ['admin'] });
  });

  it('cannot be deleted (the only admin can only try on themselves)', async () => {
    const res = await t.request('DELETE', '/api/v1/user/admin', { cookie: admin });
    expect(problemOf(res).status).toBe(409);
    expect(['user.self_delete', 'user.last_admin']).toContain(problemOf(res).code);
  });

  it('a disabled admin does not count: the last active one is still protected', async () => {
    const other = await secondAdmin();
    const otherUser = (await t.request('GET', '/api/v1/user/other', { cookie: admin })).json();
    expect(
      (await t.request('PUT', '/api/v1/user/other', { cookie: admin, payload: updateBody(otherUser, { is_active: false }) })).statusCode,
    ).toBe(200);
    expect((await t.request('GET', '/api/v1/me', { cookie: other })).statusCode).toBe(401);
    expectLastAdmin(await t.request('DELETE', '/api/v1/group/admin/user/admin', { cookie: admin }));
  });

  it('with two admins, one may be demoted or deleted, then the other is protected', async () => {
    await secondAdmin();
    expect((await t.request('DELETE', '/api/v1/group/admin/user/other', { cookie: admin })).statusCode).toBe(204);
    expectLastAdmin(await t.request('DELETE', '/api/v1/group/admin/user/admin', { cookie: admin }));
    const another = await secondAdmin('another');
    expect((await t.request('DELETE', '/api/v1/user/admin', { cookie: another })).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/me', { cookie: admin })).statusCode).toBe(401);
  });

  it('a second admin group keeps admins when the first loses its flag', async () => {
    await t.newUser(admin, 'ops1');
    const ops = await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: 'ops', is_admin: true, members: ['ops1'] } });
    expect(ops.statusCode).toBe(201);
    const res = await t.request('PUT', '/api/v1/group/admin', { cookie: admin, payload: { name: 'admin', is_admin: false } });
    expect(res.statusCode).toBe(200);
    expect((await t.request('GET', '/api/v1/me', { cookie: admin })).json().is_admin).toBe(false);
    expect((await t.request('GET', '/api/v1/user', { cookie: admin })).statusCode).toBe(403);
  });

  describe('under concurrency', () => {
    /** Counted in plain SQL, independently of the code under test. */
    const activeAdmins = async () => {
      const result = await t.database.db.execute(sql`select count(*)::int as n from users u where u.is_active and exists (
        select 1 from group_members gm join groups g on g.id = gm.group_id where gm.user_id = u.id and g.is_admin)`);
      return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
    };

    it('two admins demoting each other in parallel: at most one succeeds', async () => {
      for (let round = 0; round < 3; round++) {
        await resetDatabase(t.database);
        admin = await t.loginAdmin();
        const other = await secondAdmin();
        const [a, b] = await Promise.all([
          t.request('DELETE', '/api/v1/group/admin/user/other', { cookie: admin }),
          t.request('DELETE', '/api/v1/group/admin/user/admin', { cookie: other }),
        ]);
        const codes = [a.statusCode, b.statusCode];
        expect(codes.filter((c) => c === 204).length).toBeLessThanOrEqual(1);
        // The loser sees 409, or 403/401 when the winner committed before its session was read.
        expect(
          codes.every((c) => [204, 401, 403, 409].includes(c)),
          `${codes} ${a.body} ${b.body}`,
        ).toBe(true);
        expect(await activeAdmins()).toBeGreaterThanOrEqual(1);
      }
    });

    it('two admins updating each other out of the admin group, disabling and deleting in parallel', async () => {
      const attempts: ((admin: string, other: string) => Promise<number[]>)[] = [
        async (a, o) => {
          const [adminU, otherU] = [await adminUser(), (await t.request('GET', '/api/v1/user/other', { cookie: a })).json()];
          const res = await Promise.all([
            t.request('PUT', '/api/v1/user/other', { cookie: a, payload: updateBody(otherU, { groups: [] }) }),
            t.request('PUT', '/api/v1/user/admin', { cookie: o, payload: updateBody(adminU, { groups: [] }) }),
          ]);
          return res.map((r) => r.statusCode);
        },
        async (a, o) => {
          const [adminU, otherU] = [await adminUser(), (await t.request('GET', '/api/v1/user/other', { cookie: a })).json()];
          const res = await Promise.all([
            t.request('PUT', '/api/v1/user/other', { cookie: a, payload: updateBody(otherU, { is_active: false }) }),
            t.request('PUT', '/api/v1/user/admin', { cookie: o, payload: updateBody(adminU, { is_active: false }) }),
          ]);
          return res.map((r) => r.statusCode);
        },
        async (a, o) => {
          const res = await Promise.all([
            t.request('DELETE', '/api/v1/user/other', { cookie: a }),
            t.request('DELETE', '/api/v1/user/admin', { cookie: o }),
          ]);
          return res.map((r) => r.statusCode);
        },
      ];
      for (const attempt of attempts) {
        await resetDatabase(t.database);
        admin = await t.loginAdmin();
        const other = await secondAdmin();
        const codes = await attempt(admin, other);
        expect(codes.filter((c) => c < 300).length).toBeLessThanOrEqual(1);
        expect(
          codes.every((c) => c < 300 || [401, 403, 409].includes(c)),
          String(codes),
        ).toBe(true);
        // Whoever is left can still sign in as an admin.
        const left = await Promise.all(
          [
            ['admin', ADMIN_PASSWORD],
            ['other', USER_PASSWORD],
          ].map(async ([u, p]) => t.request('POST', '/api/v1/auth', { payload: { username: u, password: p } })),
        );
        expect(left.some((r) => r.statusCode === 200 && r.json().user.is_admin)).toBe(true);
        expect(await activeAdmins()).toBeGreaterThanOrEqual(1);
      }
    });
  });
});
