import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { eventTail, type RecordedEvent } from '#test/identity-events.js';

/**
 * Events of users, groups and settings (issue "Domain events" §1): the right type, object and
 * details, the account concerned as `subject_user_id`, and nothing when the change rolls back.
 */
describe('user, group and settings events', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let tail: () => Promise<RecordedEvent[]>;
  const from = { remoteAddress: '198.51.100.20', headers: { 'user-agent': 'identity-events/1' } };
  const as = (cookie: string, payload?: unknown) => ({ cookie, ...from, ...(payload === undefined ? {} : { payload }) });
  const person = (username: string, extra: Record<string, unknown> = {}) => ({
    username,
    first_name: 'Fay',
    last_name: 'Ull',
    email: `${username}@example.com`,
    ...extra,
  });
  const byAdmin = { actor_type: 'user', username: 'admin', ip: '198.51.100.20', user_agent: 'identity-events/1' };
  const brief = (events: RecordedEvent[]) => events.map((e) => `${e.type} ${e.object_type}:${e.object_name}`);

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    adminId = (await t.request('GET', '/api/v1/me', { cookie: admin })).json().id;
    await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: 'staff' } });
    await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: 'ops' } });
    tail = eventTail(t);
    await tail();
  });
  afterAll(() => t.close());

  it('user created, modified (field names only), disabled with its sessions ended, enabled, deleted', async () => {
    const created = await t.request('POST', '/api/v1/user', as(admin, { ...person('fay'), password: USER_PASSWORD }));
    expect(created.statusCode).toBe(201);
    const id: number = created.json().id;
    const object = { object_type: 'user', object_id: String(id), object_name: 'fay', subject_user_id: id };
    expect(await tail()).toEqual([
      expect.objectContaining({
        type: 'user.created',
        module: 'users',
        ...byAdmin,
        user_id: adminId,
        ...object,
        details: { username: 'fay', email: 'fay@example.com', first_name: 'Fay', last_name: 'Ull' },
      }),
    ]);

    await t.login('fay', USER_PASSWORD);
    await t.login('fay', USER_PASSWORD);
    await tail();
    const disabled = await t.request(
      'PUT',
      '/api/v1/user/fay',
      as(admin, person('fay', { last_name: 'Changed', phone: '+48 600 100 200', is_active: false, groups: ['staff'] })),
    );
    expect(disabled.statusCode).toBe(200);
    const events = await tail();
    expect(brief(events)).toEqual([
      'user.modified user:fay',
      'group.member_added group:staff',
      'user.disabled user:fay',
      'auth.sessions_ended user:fay',
    ]);
    expect(events[0]).toMatchObject({ ...byAdmin, ...object, details: { fields: ['last_name', 'phone', 'is_active', 'groups'] } });
    expect(events[1]).toMatchObject({ ...byAdmin, subject_user_id: id, details: { username: 'fay' } });
    expect(events[3]).toMatchObject({ ...object, details: { count: 2 } });

    // Another group instead: one left, one joined; enabling again.
    await t.request('PUT', '/api/v1/user/fay', as(admin, person('fay', { last_name: 'Changed', is_active: true, groups: ['ops'] })));
    expect(brief(await tail())).toEqual([
      'user.modified user:fay',
      'group.member_added group:ops',
      'group.member_removed group:staff',
      'user.enabled user:fay',
    ]);
    // The same values again change nothing and record nothing.
    await t.request('PUT', '/api/v1/user/fay', as(admin, person('fay', { last_name: 'Changed', is_active: true, groups: ['ops'] })));
    expect(await tail()).toEqual([]);

    expect((await t.request('DELETE', '/api/v1/user/fay', as(admin))).statusCode).toBe(204);
    expect(await tail()).toEqual([
      expect.objectContaining({
        type: 'user.deleted',
        ...object,
        details: { username: 'fay', email: 'fay@example.com', first_name: 'Fay', last_name: 'Changed' },
      }),
    ]);
  });

  it('password set by an admin and changed by the user, with the sessions ended; no password in the event', async () => {
    const fay = await t.createUser('fay');
    const id = (await t.request('GET', '/api/v1/me', { cookie: fay })).json().id;
    await tail();
    expect((await t.request('PUT', '/api/v1/user/fay/password', as(admin, { new_password: 'Set-By-Admin1!' }))).statusCode).toBe(204);
    const [set] = await tail();
    expect(set).toMatchObject({
      type: 'user.password_set',
      ...byAdmin,
      object_id: String(id),
      subject_user_id: id,
      details: { sessions_ended: 1 },
    });

    const self = await t.login('fay', 'Set-By-Admin1!');
    await tail();
    const changed = await t.request(
      'PUT',
      '/api/v1/user/change_password',
      as(self, { old_password: 'Set-By-Admin1!', new_password: 'Chosen-By-Me1!' }),
    );
    expect(changed.statusCode).toBe(204);
    const [own] = await tail();
    expect(own).toMatchObject({ type: 'user.password_changed', user_id: id, username: 'fay', object_id: String(id) });
    expect(JSON.stringify([set, own])).not.toMatch(/Set-By-Admin1!|Chosen-By-Me1!/);
  });

  it('a change that rolls back records nothing (disabling the last admin)', async () => {
    const res = await t.request('PUT', '/api/v1/user/admin', as(admin, person('admin', { email: 'admin@example.com', is_active: false })));
    expect(res.statusCode).toBe(409);
    expect(await tail()).toEqual([]);
    // A successful login is recorded once; a refused self-deletion is not.
    expect((await t.request('DELETE', '/api/v1/user/admin', as(admin))).statusCode).toBe(409);
    expect(await tail()).toEqual([]);
    expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'admin', password: ADMIN_PASSWORD } })).statusCode).toBe(200);
    expect(brief(await tail())).toEqual(['auth.login_succeeded user:admin']);
  });

  it('group created with members, renamed, admin flag, members replaced, assigned, added, removed, deleted', async () => {
    await t.createUser('ann');
    await t.createUser('bob');
    await t.createUser('cy');
    await tail();
    const created = await t.request('POST', '/api/v1/group', as(admin, { name: 'devs', members: ['ann', 'bob'] }));
    expect(created.statusCode).toBe(201);
    const events = await tail();
    expect(brief(events)).toEqual(['group.created group:devs', 'group.member_added group:devs', 'group.member_added group:devs']);
    expect(events[0]).toMatchObject({ ...byAdmin, module: 'groups', details: { is_admin: false } });
    expect(events.slice(1).map((e) => e.details.username)).toEqual(['ann', 'bob']);
    const groupId = events[0]?.object_id;

    const updated = await t.request('PUT', '/api/v1/group/devs', as(admin, { name: 'builders', is_admin: true, members: ['bob', 'cy'] }));
    expect(updated.statusCode).toBe(200);
    const changes = await tail();
    expect(brief(changes)).toEqual([
      'group.renamed group:builders',
      'group.admin_changed group:builders',
      'group.member_added group:builders',
      'group.member_removed group:builders',
    ]);
    expect(changes.every((e) => e.object_id === groupId)).toBe(true);
    expect(changes[0]?.details).toEqual({ old_name: 'devs', new_name: 'builders' });
    expect(changes.slice(2).map((e) => e.details.username)).toEqual(['cy', 'ann']);

    // Only the new memberships are events: bob and cy are members already.
    await t.request('POST', '/api/v1/groups-assign', as(admin, { groups: ['builders', 'staff'], users: ['bob', 'ann'] }));
    expect(brief(await tail()).sort()).toEqual([
      'group.member_added group:builders',
      'group.member_added group:staff',
      'group.member_added group:staff',
    ]);
    await t.request('POST', '/api/v1/group/ops', as(admin, { username: 'cy' }));
    await t.request('POST', '/api/v1/group/ops', as(admin, { username: 'cy' }));
    expect(brief(await tail())).toEqual(['group.member_added group:ops']);
    expect((await t.request('DELETE', '/api/v1/group/ops/user/cy', as(admin))).statusCode).toBe(204);
    expect(brief(await tail())).toEqual(['group.member_removed group:ops']);
    expect((await t.request('DELETE', '/api/v1/group/builders', as(admin))).statusCode).toBe(204);
    const [deleted] = await tail();
    expect(deleted).toMatchObject({
      type: 'group.deleted',
      object_id: groupId,
      object_name: 'builders',
      details: { is_admin: true, members: 3 },
    });
  });

  it('settings and enterprise settings record the keys that changed, and nothing when none did', async () => {
    const patch = (url: string, payload: unknown) => t.request('PATCH', url, as(admin, payload));
    expect((await patch('/api/v1/settings', { instance_name: 'Events Inc', activity_log_retention_days: 30 })).statusCode).toBe(200);
    expect(await tail()).toEqual([
      expect.objectContaining({
        type: 'settings.modified',
        module: 'settings',
        ...byAdmin,
        object_type: 'settings',
        details: { keys: ['instance_name', 'activity_log_retention_days'] },
      }),
    ]);
    await patch('/api/v1/settings', { instance_name: 'Events Inc' });
    expect(await tail()).toEqual([]);
    expect((await patch('/api/v1/settings_enterprise', { disable_all_traffic: true })).statusCode).toBe(200);
    expect(await tail()).toEqual([
      expect.objectContaining({
        type: 'enterprise_settings.modified',
        object_type: 'settings',
        details: { keys: ['disable_all_traffic'] },
      }),
    ]);
  });
});
