import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, resetDatabase, snapshot, type TestApp, USER_PASSWORD } from '#test/helpers.js';

describe('groups', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    await t.newUser(admin, 'alice');
    await t.newUser(admin, 'bob');
    alice = await t.login('alice', USER_PASSWORD);
  });
  afterAll(() => t.close());

  const as = (cookie: string) => ({
    get: (url: string) => t.request('GET', url, { cookie }),
    post: (url: string, payload: unknown) => t.request('POST', url, { cookie, payload }),
    put: (url: string, payload: unknown) => t.request('PUT', url, { cookie, payload }),
    del: (url: string) => t.request('DELETE', url, { cookie }),
  });
  const codes = (res: { json(): { errors?: { path: string; code: string }[] } }) =>
    (res.json().errors ?? []).map((e) => `${e.path}:${e.code}`);

  it('lists groups (GET /group) and group info with ids (GET /group-info)', async () => {
    expect((await as(admin).post('/api/v1/group', { name: 'staff', members: ['bob', 'ALICE'] })).statusCode).toBe(201);
    const list = await as(admin).get('/api/v1/group');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      { name: 'admin', members: ['admin'], is_admin: true },
      { name: 'staff', members: ['alice', 'bob'], is_admin: false },
    ]);
    const info = await as(admin).get('/api/v1/group-info');
    expect(info.json()).toEqual([
      { id: expect.any(Number), name: 'admin', members: ['admin'], is_admin: true },
      { id: expect.any(Number), name: 'staff', members: ['alice', 'bob'], is_admin: false },
    ]);
  });

  it('creates a group: 201 with the fixed shape; members optional', async () => {
    const res = await as(admin).post('/api/v1/group', { name: 'Dev Team' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ name: 'Dev Team', members: [], is_admin: false });
    const adminGroup = await as(admin).post('/api/v1/group', { name: 'ops', is_admin: true, members: ['bob'] });
    expect(adminGroup.json()).toEqual({ name: 'ops', members: ['bob'], is_admin: true });
    expect((await as(admin).get('/api/v1/user/bob')).json()).toMatchObject({ groups: ['ops'], is_admin: true });
  });

  it('refuses bad group bodies and taken names (case-insensitively) without writing', async () => {
    await as(admin).post('/api/v1/group', { name: 'staff' });
    const before = await snapshot(t.database);
    const taken = await as(admin).post('/api/v1/group', { name: 'STAFF' });
    expect(problemOf(taken)).toMatchObject({ status: 400, code: 'group.name_taken' });
    expect(codes(taken)).toEqual(['name:name_taken']);
    expect(codes(await as(admin).post('/api/v1/group', { name: 'bad/name' }))).toEqual(['name:no_special_chars']);
    expect(codes(await as(admin).post('/api/v1/group', { name: '' }))).toEqual(['name:required']);
    expect(codes(await as(admin).post('/api/v1/group', { name: 'x'.repeat(65) }))).toEqual(['name:max_length']);
    expect(codes(await as(admin).post('/api/v1/group', { name: 'ok', is_admin: 'yes' }))).toEqual(['is_admin:invalid_type']);
    expect(codes(await as(admin).post('/api/v1/group', { name: 'ok', color: 'red' }))).toEqual(['color:unknown_field']);
    const unknownMember = await as(admin).post('/api/v1/group', { name: 'ok', members: ['alice', 'ghost'] });
    expect(problemOf(unknownMember)).toMatchObject({ status: 400, code: 'validation.failed' });
    expect(unknownMember.json().errors).toEqual([
      { path: 'members', code: 'user.not_found', message: 'User not found: ghost', params: { username: 'ghost' } },
    ]);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('reads one group by name, case-insensitively; 404 for unknown', async () => {
    await as(admin).post('/api/v1/group', { name: 'staff', members: ['alice'] });
    expect((await as(admin).get('/api/v1/group/STAFF')).json()).toEqual({ name: 'staff', members: ['alice'], is_admin: false });
    expect(problemOf(await as(admin).get('/api/v1/group/nope'))).toMatchObject({ status: 404, code: 'group.not_found' });
  });

  it('updates a group: rename, replace members, set the flag; omitted fields stay', async () => {
    await as(admin).post('/api/v1/group', { name: 'staff', members: ['alice'] });
    const renamed = await as(admin).put('/api/v1/group/staff', { name: 'crew' });
    expect(renamed.json()).toEqual({ name: 'crew', members: ['alice'], is_admin: false });
    const replaced = await as(admin).put('/api/v1/group/crew', { name: 'crew', members: ['bob'], is_admin: true });
    expect(replaced.json()).toEqual({ name: 'crew', members: ['bob'], is_admin: true });
    expect((await as(admin).get('/api/v1/user/alice')).json().groups).toEqual([]);
    expect(problemOf(await as(admin).get('/api/v1/group/staff')).code).toBe('group.not_found');
    // Renaming to another group's name is refused; to its own name in another case is fine.
    const taken = await as(admin).put('/api/v1/group/crew', { name: 'ADMIN' });
    expect(problemOf(taken).code).toBe('group.name_taken');
    expect((await as(admin).put('/api/v1/group/crew', { name: 'Crew' })).json().name).toBe('Crew');
    expect(problemOf(await as(admin).put('/api/v1/group/nope', { name: 'nope' })).code).toBe('group.not_found');
    expect(codes(await as(admin).put('/api/v1/group/crew', { name: 'crew/x' }))).toEqual(['name:no_special_chars']);
    expect(codes(await as(admin).put('/api/v1/group/crew', { name: 'admin' }))).toEqual(['name:name_taken']);
    const ghost = await as(admin).put('/api/v1/group/crew', { name: 'crew', members: ['ghost'] });
    expect(problemOf(ghost).code).toBe('validation.failed');
    expect(codes(ghost)).toEqual(['members:user.not_found']);
  });

  it('deletes a group: 204 then 404; memberships go with it', async () => {
    await as(admin).post('/api/v1/group', { name: 'staff', members: ['alice'] });
    expect((await as(admin).del('/api/v1/group/staff')).statusCode).toBe(204);
    expect(problemOf(await as(admin).del('/api/v1/group/staff')).code).toBe('group.not_found');
    expect((await as(admin).get('/api/v1/user/alice')).json().groups).toEqual([]);
  });

  it('adds and removes members', async () => {
    await as(admin).post('/api/v1/group', { name: 'staff' });
    const added = await as(admin).post('/api/v1/group/staff', { username: 'ALICE' });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ name: 'staff', members: ['alice'], is_admin: false });
    // Adding twice is harmless.
    expect((await as(admin).post('/api/v1/group/staff', { username: 'alice' })).json().members).toEqual(['alice']);
    // The console shows the field error next to the input: the user was not found, by name.
    const ghost = await as(admin).post('/api/v1/group/staff', { username: 'ghost' });
    expect(problemOf(ghost)).toMatchObject({ status: 404, code: 'user.not_found' });
    expect(ghost.json().errors).toEqual([
      { path: 'username', code: 'user.not_found', message: 'User not found: ghost', params: { username: 'ghost' } },
    ]);
    expect(problemOf(await as(admin).post('/api/v1/group/nope', { username: 'alice' })).code).toBe('group.not_found');
    expect(codes(await as(admin).post('/api/v1/group/staff', {}))).toEqual(['username:required']);

    expect((await as(admin).del('/api/v1/group/staff/user/alice')).statusCode).toBe(204);
    expect(problemOf(await as(admin).del('/api/v1/group/staff/user/alice'))).toMatchObject({ status: 404, code: 'group.member_not_found' });
    expect(problemOf(await as(admin).del('/api/v1/group/staff/user/ghost'))).toMatchObject({ status: 404, code: 'user.not_found' });
    expect(problemOf(await as(admin).del('/api/v1/group/nope/user/alice'))).toMatchObject({ status: 404, code: 'group.not_found' });
  });

  it('groups-assign adds several users to several groups', async () => {
    await as(admin).post('/api/v1/group', { name: 'a' });
    await as(admin).post('/api/v1/group', { name: 'b', members: ['bob'] });
    const res = await as(admin).post('/api/v1/groups-assign', { groups: ['a', 'B'], users: ['alice', 'bob'] });
    expect(res.statusCode).toBe(204);
    expect((await as(admin).get('/api/v1/group/a')).json().members).toEqual(['alice', 'bob']);
    expect((await as(admin).get('/api/v1/group/b')).json().members).toEqual(['alice', 'bob']);
    const before = await snapshot(t.database);
    expect(problemOf(await as(admin).post('/api/v1/groups-assign', { groups: ['a', 'zzz'], users: ['alice'] })).code).toBe(
      'group.not_found',
    );
    const ghost = await as(admin).post('/api/v1/groups-assign', { groups: ['a'], users: ['alice', 'ghost'] });
    expect(problemOf(ghost).code).toBe('validation.failed');
    expect(codes(ghost)).toEqual(['users:user.not_found']);
    expect(codes(await as(admin).post('/api/v1/groups-assign', { groups: [], users: [] }))).toEqual(['groups:required', 'users:required']);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('resolves thousands of usernames at once, and names only a few of the unknown ones', async () => {
    await t.database.db.execute(sql`insert into users (username, first_name, last_name, email)
      select 'bulk' || i, 'Bulk', 'User', 'bulk' || i || '@example.com' from generate_series(1, 1000) as i`);
    await as(admin).post('/api/v1/group', { name: 'bulk' });
    const names = Array.from({ length: 1000 }, (_, i) => `BULK${i + 1}`);
    const ok = await as(admin).post('/api/v1/groups-assign', { groups: ['bulk'], users: names });
    expect(ok.statusCode).toBe(204);
    expect((await as(admin).get('/api/v1/group/bulk')).json().members).toHaveLength(1000);
    const unknown = await as(admin).put('/api/v1/group/bulk', { name: 'bulk', members: [...names, ...names.map((n) => `${n}x`)] });
    expect(problemOf(unknown).code).toBe('validation.failed');
    expect(unknown.json().detail).toMatch(/and 980 more$/);
  });

  it('membership of an admin group makes a user admin at once, and removal revokes it', async () => {
    expect((await as(alice).get('/api/v1/group')).statusCode).toBe(403);
    await as(admin).post('/api/v1/group/admin', { username: 'alice' });
    expect((await as(alice).get('/api/v1/group')).statusCode).toBe(200);
    expect((await as(alice).get('/api/v1/me')).json().is_admin).toBe(true);
    await as(admin).del('/api/v1/group/admin/user/alice');
    expect(problemOf(await as(alice).get('/api/v1/group'))).toMatchObject({ status: 403, code: 'auth.forbidden' });
  });

  it('non-admins reach no group route (403, nothing written); anonymous gets 401', async () => {
    await as(admin).post('/api/v1/group', { name: 'staff' });
    const before = await snapshot(t.database);
    const attempts = [
      as(alice).get('/api/v1/group'),
      as(alice).get('/api/v1/group-info'),
      as(alice).get('/api/v1/group/staff'),
      as(alice).post('/api/v1/group', { name: 'mine' }),
      as(alice).put('/api/v1/group/staff', { name: 'staff', is_admin: true }),
      as(alice).del('/api/v1/group/staff'),
      as(alice).post('/api/v1/groups-assign', { groups: ['admin'], users: ['alice'] }),
      as(alice).post('/api/v1/group/admin', { username: 'alice' }),
      as(alice).del('/api/v1/group/admin/user/admin'),
    ];
    for (const res of await Promise.all(attempts)) expect(problemOf(res)).toMatchObject({ status: 403, code: 'auth.forbidden' });
    const anon = await t.request('POST', '/api/v1/group/admin', { payload: { username: 'alice' } });
    expect(problemOf(anon)).toMatchObject({ status: 401, code: 'auth.unauthenticated' });
    expect(await snapshot(t.database)).toBe(before);
  });
});
