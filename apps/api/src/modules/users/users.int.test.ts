import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, resetDatabase, snapshot, type TestApp, updateBody, USER_PASSWORD, userBody } from '#test/helpers.js';

const NEW_PASSWORD = 'N3w-Passw0rd!';

describe('users', () => {
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

  const create = (payload: Record<string, unknown>) => t.request('POST', '/api/v1/user', { cookie: admin, payload });
  const fieldErrors = (res: { json(): { errors?: { path: string; code: string }[] } }) =>
    (res.json().errors ?? []).map((e) => `${e.path}:${e.code}`);

  describe('POST /user', () => {
    it('creates a user: 201 with the fixed shape and no secrets', async () => {
      const res = await create(userBody('alice', { phone: '+48 123 456 789', first_name: 'Alice', last_name: 'Liddell' }));
      expect(res.statusCode).toBe(201);
      const user = res.json();
      expect(user).toMatchObject({
        id: expect.any(Number),
        username: 'alice',
        first_name: 'Alice',
        last_name: 'Liddell',
        email: 'alice@example.com',
        phone: '+48 123 456 789',
        is_active: true,
        is_admin: false,
        groups: [],
        mfa_enabled: false,
        enrolled: false,
        has_password: true,
      });
      expect(user.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(user).not.toHaveProperty('mfa_method');
      expect(res.body).not.toMatch(/password_hash|passwordHash|\$argon2/);
      expect(res.body).not.toContain(USER_PASSWORD);
    });

    it('creates a user without password or phone: optional fields are omitted', async () => {
      const { password: _p, ...body } = userBody('nopass');
      const res = await create(body);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ has_password: false });
      expect(res.json()).not.toHaveProperty('phone');
      // Without a password nobody can log in as this user.
      expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'nopass', password: USER_PASSWORD } })).statusCode).toBe(401);
    });

    it.each([
      ['1abc', 'username.starts_with_number'],
      ['ab c', 'username.forbidden_characters'],
      ['ab@c', 'username.forbidden_characters'],
      ['zażółć', 'username.forbidden_characters'],
      ['a'.repeat(65), 'max_length'],
      ['', 'required'],
    ])('refuses username %j with %s', async (username, code) => {
      const before = await snapshot(t.database);
      const res = await create(userBody(username, { email: 'x@example.com' }));
      expect(problemOf(res)).toMatchObject({ status: 400, code: 'validation.failed' });
      expect(fieldErrors(res)).toContain(`username:${code}`);
      expect(await snapshot(t.database)).toBe(before);
    });

    it('accepts a username of exactly 64 characters with dots, dashes and underscores', async () => {
      const name = `a.b-c_${'x'.repeat(58)}`;
      expect(name).toHaveLength(64);
      expect((await create(userBody(name, { email: 'long@example.com' }))).statusCode).toBe(201);
    });

    it.each([
      ['Sh0rt!', 'min_length'],
      ['nodigits!Aa', 'password.digit'],
      ['NoSpecial1a', 'password.special'],
      ['noupper1!a', 'password.uppercase'],
      ['NOLOWER1!A', 'password.lowercase'],
      [`Aa1!${'x'.repeat(125)}`, 'max_length'],
    ])('refuses weak password %j with %s', async (password, code) => {
      const res = await create(userBody('weak', { password }));
      expect(res.statusCode).toBe(400);
      expect(fieldErrors(res)).toContain(`password:${code}`);
    });

    it('reports every failed field at once', async () => {
      const res = await create({
        username: '9x',
        first_name: '',
        last_name: 'x'.repeat(129),
        email: 'not-an-email',
        phone: 'abc',
        password: 'a',
      });
      expect(fieldErrors(res)).toEqual(
        expect.arrayContaining([
          'username:username.starts_with_number',
          'first_name:required',
          'last_name:max_length',
          'email:email',
          'phone:phone',
          'password:min_length',
        ]),
      );
    });

    it('refuses unknown fields and missing required fields', async () => {
      const res = await create({ ...userBody('extra'), is_admin: true });
      expect(fieldErrors(res)).toEqual(['is_admin:unknown_field']);
      const missing = await create({ username: 'only' });
      expect(fieldErrors(missing)).toEqual(expect.arrayContaining(['first_name:required', 'last_name:required', 'email:required']));
    });

    it('refuses a taken username or email, case-insensitively', async () => {
      await t.newUser(admin, 'Alice');
      const before = await snapshot(t.database);
      const dupName = await create(userBody('ALICE', { email: 'other@example.com' }));
      expect(problemOf(dupName)).toMatchObject({ status: 400, code: 'user.username_taken' });
      expect(dupName.json().errors).toEqual([expect.objectContaining({ path: 'username', code: 'username_taken' })]);
      const dupEmail = await create(userBody('alice2', { email: 'ALICE@Example.COM' }));
      expect(problemOf(dupEmail)).toMatchObject({ status: 400, code: 'user.email_taken' });
      expect(dupEmail.json().errors).toEqual([expect.objectContaining({ path: 'email', code: 'email_taken' })]);
      expect(await snapshot(t.database)).toBe(before);
    });

    it('names of static routes under /user and /device are reserved: refused on create and rename', async () => {
      // `POST /device/network` would never reach `POST /device/{username}` for a user `network`.
      for (const username of ['change_password', 'Available', 'network', 'USER']) {
        const res = await create(userBody(username));
        expect(problemOf(res)).toMatchObject({ status: 400, code: 'validation.failed' });
        expect(res.json().errors).toEqual([
          expect.objectContaining({ path: 'username', code: 'reserved', message: 'This name is reserved' }),
        ]);
        const check = await t.request('POST', '/api/v1/user/available', { cookie: admin, payload: { username } });
        expect(check.json()).toEqual({ available: false });
      }
      await t.newUser(admin, 'renamer');
      const user = (await t.request('GET', '/api/v1/user/renamer', { cookie: admin })).json();
      const before = await snapshot(t.database);
      for (const username of ['CHANGE_PASSWORD', 'network']) {
        const rename = await t.request('PUT', '/api/v1/user/renamer', { cookie: admin, payload: updateBody(user, { username }) });
        expect(problemOf(rename)).toMatchObject({ status: 400, code: 'validation.failed' });
        expect(rename.json().errors).toEqual([expect.objectContaining({ path: 'username', code: 'reserved' })]);
      }
      expect(await snapshot(t.database)).toBe(before);
    });

    it('an account whose name became reserved keeps working where no route shadows it, and is reported', async () => {
      await t.newUser(admin, 'netwrk');
      await t.database.db.execute(sql`update users set username = 'network' where username = 'netwrk'`);
      expect(await t.app.services.users.findReservedUsernames()).toEqual(['network']);
      const user = (await t.request('GET', '/api/v1/user/network', { cookie: admin })).json();
      expect(user.username).toBe('network');
      // Saving the profile unchanged is allowed; only a rename to a reserved word is refused.
      const save = await t.request('PUT', '/api/v1/user/network', { cookie: admin, payload: updateBody(user, { first_name: 'Net' }) });
      expect(save.statusCode).toBe(200);
      expect(save.json()).toMatchObject({ username: 'network', first_name: 'Net' });
    });

    it('two concurrent creates of the same name: one 201, one username_taken', async () => {
      const [a, b] = await Promise.all([
        create(userBody('twin', { email: 'a@example.com' })),
        create(userBody('TWIN', { email: 'b@example.com' })),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 400]);
      const loser = a.statusCode === 400 ? a : b;
      expect(loser.json().code).toBe('user.username_taken');
    });
  });

  it('GET /me lists the groups the user is in, whatever their ids', async () => {
    // Group ids that differ from the user's id: a subquery that compared the member to the
    // group's own id would list the wrong groups.
    for (const name of ['g1', 'g2', 'g3', 'g4', 'g5', 'g6']) {
      expect((await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name, members: [] } })).statusCode).toBe(201);
    }
    expect((await create(userBody('carol'))).statusCode).toBe(201);
    expect((await t.request('POST', '/api/v1/group/g5', { cookie: admin, payload: { username: 'carol' } })).statusCode).toBeLessThan(300);
    const me = await t.request('GET', '/api/v1/me', { cookie: await t.login('carol', USER_PASSWORD) });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ username: 'carol', groups: ['g5'], is_admin: false });
  });

  describe('POST /user/available', () => {
    it('answers whether a username is free, case-insensitively', async () => {
      await t.newUser(admin, 'taken');
      const check = (username: string) => t.request('POST', '/api/v1/user/available', { cookie: admin, payload: { username } });
      expect((await check('TAKEN')).json()).toEqual({ available: false });
      expect((await check('free')).json()).toEqual({ available: true });
      const bad = await check('1bad');
      expect(fieldErrors(bad)).toEqual(['username:username.starts_with_number']);
    });
  });

  describe('GET /user (list)', () => {
    beforeEach(async () => {
      for (const [name, first, last] of [
        ['zed', 'Zed', 'Alpha'],
        ['amy', 'Amy', 'Zulu'],
        ['bert', 'Bert', 'Mike'],
        ['carl', 'Carl', 'Kilo'],
      ] as const) {
        // No password: these users never sign in, and hashing one costs ~20 ms of CPU.
        await t.newUser(admin, name, { first_name: first, last_name: last, password: undefined });
      }
      const res = await t.request('POST', '/api/v1/group/admin', { cookie: admin, payload: { username: 'bert' } });
      expect(res.statusCode).toBe(200);
    });
    const list = (query: Record<string, string> = {}) => t.request('GET', '/api/v1/user', { cookie: admin, query });
    const names = (res: { json(): { items: { username: string }[] } }) => res.json().items.map((u) => u.username);

    it('pages with {items,page,per_page,total}, default sort by username', async () => {
      const res = await list();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ page: 1, per_page: 50, total: 5 });
      expect(names(res)).toEqual(['admin', 'amy', 'bert', 'carl', 'zed']);
      const page2 = await list({ page: '2', per_page: '2' });
      expect(page2.json()).toMatchObject({ page: 2, per_page: 2, total: 5 });
      expect(names(page2)).toEqual(['bert', 'carl']);
      const beyond = await list({ page: '9', per_page: '2' });
      expect(beyond.json()).toEqual({ items: [], page: 9, per_page: 2, total: 5 });
      expect(res.body).not.toMatch(/password_hash|passwordHash|\$argon2/);
    });

    it('searches username, names and email case-insensitively; LIKE wildcards are literal', async () => {
      expect(names(await list({ search: 'ZULU' }))).toEqual(['amy']);
      expect(names(await list({ search: 'carl kilo' }))).toEqual(['carl']);
      expect(names(await list({ search: 'zed@example' }))).toEqual(['zed']);
      expect((await list({ search: '%' })).json().total).toBe(0);
      expect((await list({ search: '_' })).json().total).toBe(0);
      expect((await list({ search: 'a\\' })).json().total).toBe(0);
      expect((await list({ search: "'; drop table users; --" })).json().total).toBe(0);
      expect((await list({ search: '   ' })).json().total).toBe(5);
    });

    it('filters admins and users', async () => {
      expect(names(await list({ filter: 'admins' }))).toEqual(['admin', 'bert']);
      expect(names(await list({ filter: 'users' }))).toEqual(['amy', 'carl', 'zed']);
      expect((await list({ filter: 'all' })).json().total).toBe(5);
      const admins = await list({ filter: 'admins', per_page: '1' });
      expect(admins.json()).toMatchObject({ total: 2, per_page: 1 });
    });

    it('sorts by each key, both directions', async () => {
      expect(names(await list({ sort: '-username' }))).toEqual(['zed', 'carl', 'bert', 'amy', 'admin']);
      expect(names(await list({ sort: 'last_name', filter: 'users' }))).toEqual(['zed', 'carl', 'amy']);
      expect(names(await list({ sort: '-last_name', filter: 'users' }))).toEqual(['amy', 'carl', 'zed']);
      expect(names(await list({ sort: 'email', filter: 'users' }))).toEqual(['amy', 'carl', 'zed']);
      expect(names(await list({ sort: 'created_at' }))).toEqual(['admin', 'zed', 'amy', 'bert', 'carl']);
      expect(names(await list({ sort: '-created_at' }))).toEqual(['carl', 'bert', 'amy', 'zed', 'admin']);
    });

    it.each([
      [{ page: '0' }, 'page:min_value'],
      [{ per_page: '201' }, 'per_page:max_value'],
      [{ per_page: 'ten' }, 'per_page:number'],
      [{ sort: 'password_hash' }, 'sort:invalid'],
      [{ filter: 'root' }, 'filter:invalid'],
      [{ search: 'x'.repeat(129) }, 'search:max_length'],
      [{ bogus: '1' }, 'bogus:unknown_field'],
    ])('refuses query %j', async (query, expected) => {
      const res = await list(query);
      expect(problemOf(res)).toMatchObject({ status: 400, code: 'validation.failed' });
      expect(fieldErrors(res).map((e) => e.replace(/^querystring\./, ''))).toContain(expected);
    });
  });

  describe('GET/PUT /user/{username} across users', () => {
    let alice: string;
    let bob: string;
    beforeEach(async () => {
      await t.newUser(admin, 'alice');
      await t.newUser(admin, 'bob');
      alice = await t.login('alice', USER_PASSWORD);
      bob = await t.login('bob', USER_PASSWORD);
    });

    it('a user reads themselves (any case), not another user; admin reads anyone', async () => {
      const self = await t.request('GET', '/api/v1/user/alice', { cookie: alice });
      expect(self.statusCode).toBe(200);
      expect(self.json()).toMatchObject({ username: 'alice' });
      expect((await t.request('GET', '/api/v1/user/ALICE', { cookie: alice })).statusCode).toBe(200);
      const other = await t.request('GET', '/api/v1/user/bob', { cookie: alice });
      expect(problemOf(other)).toMatchObject({ status: 403, code: 'auth.forbidden' });
      expect(other.body).not.toContain('bob@example.com');
      expect((await t.request('GET', '/api/v1/user/bob', { cookie: admin })).json()).toMatchObject({ username: 'bob' });
      expect(problemOf(await t.request('GET', '/api/v1/user/ghost', { cookie: admin }))).toMatchObject({
        status: 404,
        code: 'user.not_found',
      });
      expect(problemOf(await t.request('GET', '/api/v1/user/ghost', { cookie: alice }))).toMatchObject({ status: 403 });
      expect(problemOf(await t.request('GET', '/api/v1/user/alice'))).toMatchObject({ status: 401, code: 'auth.unauthenticated' });
    });

    it('a user updates their own profile', async () => {
      const me = (await t.request('GET', '/api/v1/user/alice', { cookie: alice })).json();
      const res = await t.request('PUT', '/api/v1/user/alice', {
        cookie: alice,
        payload: updateBody(me, { first_name: 'Alicia', phone: '555-1234-5' }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ first_name: 'Alicia', phone: '555-1234-5' });
      // PUT without optional fields: the phone is cleared.
      const { groups: _g, is_active: _a, phone: _p, ...plain } = updateBody(res.json());
      const cleared = await t.request('PUT', '/api/v1/user/alice', { cookie: alice, payload: plain });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).not.toHaveProperty('phone');
    });

    it('a user cannot update another user', async () => {
      const bobUser = (await t.request('GET', '/api/v1/user/bob', { cookie: admin })).json();
      const before = await snapshot(t.database);
      const res = await t.request('PUT', '/api/v1/user/bob', { cookie: alice, payload: updateBody(bobUser, { first_name: 'Hacked' }) });
      expect(problemOf(res)).toMatchObject({ status: 403, code: 'auth.forbidden' });
      expect(await snapshot(t.database)).toBe(before);
    });

    it('a user cannot change their own groups or status (403) but may send them unchanged', async () => {
      await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: 'staff', members: ['alice'] } });
      const me = (await t.request('GET', '/api/v1/user/alice', { cookie: alice })).json();
      expect(me.groups).toEqual(['staff']);
      const before = await snapshot(t.database);
      for (const change of [{ groups: ['staff', 'admin'] }, { groups: ['admin'] }, { groups: [] }, { is_active: false }]) {
        const res = await t.request('PUT', '/api/v1/user/alice', {
          cookie: alice,
          payload: updateBody(me, { first_name: 'Changed', ...change }),
        });
        expect(problemOf(res)).toMatchObject({ status: 403, code: 'auth.forbidden' });
      }
      expect(await snapshot(t.database)).toBe(before);
      const same = await t.request('PUT', '/api/v1/user/alice', {
        cookie: alice,
        payload: updateBody(me, { groups: ['STAFF'], is_active: true }),
      });
      expect(same.statusCode).toBe(200);
      expect(same.json()).toMatchObject({ groups: ['staff'], is_active: true, is_admin: false });
    });

    it('an admin changes groups and refuses unknown groups', async () => {
      const bobUser = (await t.request('GET', '/api/v1/user/bob', { cookie: admin })).json();
      const res = await t.request('PUT', '/api/v1/user/bob', { cookie: admin, payload: updateBody(bobUser, { groups: ['admin'] }) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ groups: ['admin'], is_admin: true });
      const before = await snapshot(t.database);
      const unknown = await t.request('PUT', '/api/v1/user/bob', {
        cookie: admin,
        payload: updateBody(bobUser, { first_name: 'Other', groups: ['admin', 'nope'] }),
      });
      expect(problemOf(unknown)).toMatchObject({ status: 400, code: 'group.not_found' });
      expect(unknown.json().errors).toEqual([
        { path: 'groups', code: 'group.not_found', message: 'Group not found: nope', params: { name: 'nope' } },
      ]);
      expect(await snapshot(t.database)).toBe(before);
    });

    it('renames, and refuses a taken username or email (case-insensitively)', async () => {
      const me = (await t.request('GET', '/api/v1/user/alice', { cookie: alice })).json();
      const takenName = await t.request('PUT', '/api/v1/user/alice', { cookie: alice, payload: updateBody(me, { username: 'BOB' }) });
      expect(problemOf(takenName).code).toBe('user.username_taken');
      expect(takenName.json().errors).toEqual([expect.objectContaining({ path: 'username', code: 'username_taken' })]);
      const takenEmail = await t.request('PUT', '/api/v1/user/alice', {
        cookie: alice,
        payload: updateBody(me, { email: 'Bob@Example.com' }),
      });
      expect(problemOf(takenEmail).code).toBe('user.email_taken');
      expect(takenEmail.json().errors).toEqual([expect.objectContaining({ path: 'email', code: 'email_taken' })]);
      const renamed = await t.request('PUT', '/api/v1/user/alice', { cookie: alice, payload: updateBody(me, { username: 'alicia' }) });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().username).toBe('alicia');
      // The session follows the renamed account.
      expect((await t.request('GET', '/api/v1/user/alicia', { cookie: alice })).statusCode).toBe(200);
      expect(problemOf(await t.request('GET', '/api/v1/user/alice', { cookie: admin })).code).toBe('user.not_found');
    });

    it('validates the update body', async () => {
      const me = (await t.request('GET', '/api/v1/user/alice', { cookie: alice })).json();
      const res = await t.request('PUT', '/api/v1/user/alice', {
        cookie: alice,
        payload: updateBody(me, { username: '7up', email: 'nope', is_admin: true }),
      });
      expect(fieldErrors(res)).toEqual(
        expect.arrayContaining(['username:username.starts_with_number', 'email:email', 'is_admin:unknown_field']),
      );
      expect(
        problemOf(await t.request('PUT', '/api/v1/user/ghost', { cookie: admin, payload: updateBody(me, { username: 'ghost' }) })).code,
      ).toBe('user.not_found');
    });

    it('disabling a user ends their sessions at once and blocks login; enabling lets them back', async () => {
      const bobUser = (await t.request('GET', '/api/v1/user/bob', { cookie: admin })).json();
      expect((await t.request('GET', '/api/v1/me', { cookie: bob })).statusCode).toBe(200);
      const res = await t.request('PUT', '/api/v1/user/bob', { cookie: admin, payload: updateBody(bobUser, { is_active: false }) });
      expect(res.statusCode).toBe(200);
      expect(res.json().is_active).toBe(false);
      expect((await t.request('GET', '/api/v1/me', { cookie: bob })).statusCode).toBe(401);
      expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'bob', password: USER_PASSWORD } })).statusCode).toBe(401);
      const enabled = await t.request('PUT', '/api/v1/user/bob', { cookie: admin, payload: updateBody(bobUser, { is_active: true }) });
      expect(enabled.json().is_active).toBe(true);
      expect((await t.request('GET', '/api/v1/me', { cookie: bob })).statusCode).toBe(401);
      expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'bob', password: USER_PASSWORD } })).statusCode).toBe(200);
    });
  });

  describe('DELETE /user/{username}', () => {
    it('an admin deletes a user: 204, then 404; their sessions end', async () => {
      await t.newUser(admin, 'gone');
      const gone = await t.login('gone', USER_PASSWORD);
      const res = await t.request('DELETE', '/api/v1/user/GONE', { cookie: admin });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(problemOf(await t.request('GET', '/api/v1/user/gone', { cookie: admin })).code).toBe('user.not_found');
      expect(problemOf(await t.request('DELETE', '/api/v1/user/gone', { cookie: admin })).code).toBe('user.not_found');
      expect((await t.request('GET', '/api/v1/me', { cookie: gone })).statusCode).toBe(401);
    });

    it('a user cannot delete anyone, not even themselves; an admin cannot delete themselves', async () => {
      await t.newUser(admin, 'alice');
      await t.newUser(admin, 'bob');
      const alice = await t.login('alice', USER_PASSWORD);
      const before = await snapshot(t.database);
      expect(problemOf(await t.request('DELETE', '/api/v1/user/bob', { cookie: alice }))).toMatchObject({
        status: 403,
        code: 'auth.forbidden',
      });
      expect(problemOf(await t.request('DELETE', '/api/v1/user/alice', { cookie: alice }))).toMatchObject({
        status: 403,
        code: 'auth.forbidden',
      });
      expect(problemOf(await t.request('DELETE', '/api/v1/user/bob'))).toMatchObject({ status: 401 });
      expect(problemOf(await t.request('DELETE', '/api/v1/user/admin', { cookie: admin }))).toMatchObject({ status: 409 });
      expect(await snapshot(t.database)).toBe(before);
    });
  });

  describe('passwords', () => {
    let alice: string;
    beforeEach(async () => {
      await t.newUser(admin, 'alice');
      alice = await t.login('alice', USER_PASSWORD);
    });

    it('admin set-password: new password works, old does not, the user’s sessions end', async () => {
      const res = await t.request('PUT', '/api/v1/user/alice/password', { cookie: admin, payload: { new_password: NEW_PASSWORD } });
      expect(res.statusCode).toBe(204);
      expect((await t.request('GET', '/api/v1/me', { cookie: alice })).statusCode).toBe(401);
      expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'alice', password: USER_PASSWORD } })).statusCode).toBe(401);
      expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'alice', password: NEW_PASSWORD } })).statusCode).toBe(200);
      // The admin's own session is untouched.
      expect((await t.request('GET', '/api/v1/me', { cookie: admin })).statusCode).toBe(200);
    });

    it('admin set-password validates strength and the user; users may not call it', async () => {
      const weak = await t.request('PUT', '/api/v1/user/alice/password', { cookie: admin, payload: { new_password: 'weakpass' } });
      expect(fieldErrors(weak)).toEqual(expect.arrayContaining(['new_password:password.digit', 'new_password:password.uppercase']));
      expect(
        problemOf(await t.request('PUT', '/api/v1/user/ghost/password', { cookie: admin, payload: { new_password: NEW_PASSWORD } })).code,
      ).toBe('user.not_found');
      const self = await t.request('PUT', '/api/v1/user/alice/password', { cookie: alice, payload: { new_password: NEW_PASSWORD } });
      expect(problemOf(self)).toMatchObject({ status: 403, code: 'auth.forbidden' });
      expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'alice', password: USER_PASSWORD } })).statusCode).toBe(200);
    });

    it('change_password needs the right old password', async () => {
      const before = await snapshot(t.database);
      const res = await t.request('PUT', '/api/v1/user/change_password', {
        cookie: alice,
        payload: { old_password: 'Wrong-old1!', new_password: NEW_PASSWORD },
      });
      expect(problemOf(res)).toMatchObject({ status: 400, code: 'auth.invalid_password' });
      expect(fieldErrors(res)).toEqual(['old_password:invalid']);
      expect(await snapshot(t.database)).toBe(before);
      expect((await t.request('GET', '/api/v1/me', { cookie: alice })).statusCode).toBe(200);
    });

    it('change_password ends the other sessions but keeps the current one', async () => {
      const other = await t.login('alice', USER_PASSWORD);
      const res = await t.request('PUT', '/api/v1/user/change_password', {
        cookie: alice,
        payload: { old_password: USER_PASSWORD, new_password: NEW_PASSWORD },
      });
      expect(res.statusCode).toBe(204);
      expect((await t.request('GET', '/api/v1/me', { cookie: alice })).statusCode).toBe(200);
      expect((await t.request('GET', '/api/v1/me', { cookie: other })).statusCode).toBe(401);
      expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'alice', password: USER_PASSWORD } })).statusCode).toBe(401);
      expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'alice', password: NEW_PASSWORD } })).statusCode).toBe(200);
      // Someone else's sessions are not affected.
      expect((await t.request('GET', '/api/v1/me', { cookie: admin })).statusCode).toBe(200);
    });

    it('change_password validates the new password and needs a session', async () => {
      const weak = await t.request('PUT', '/api/v1/user/change_password', {
        cookie: alice,
        payload: { old_password: USER_PASSWORD, new_password: 'alllowercase1!' },
      });
      expect(fieldErrors(weak)).toEqual(['new_password:password.uppercase']);
      const missing = await t.request('PUT', '/api/v1/user/change_password', { cookie: alice, payload: {} });
      expect(fieldErrors(missing)).toEqual(expect.arrayContaining(['old_password:required', 'new_password:required']));
      const anon = await t.request('PUT', '/api/v1/user/change_password', {
        payload: { old_password: USER_PASSWORD, new_password: NEW_PASSWORD },
      });
      expect(problemOf(anon)).toMatchObject({ status: 401, code: 'auth.unauthenticated' });
    });
  });
});
