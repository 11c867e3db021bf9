import { Attribute, Change, Client } from 'ldapts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, problemOf, resetDatabase, snapshot, type TestApp, updateBody } from '#test/helpers.js';
import { type Slapd, startSlapd } from '#test/support/slapd.js';

/** LDAP sync against a real slapd (docs/ldap.md → Sync): both authorities, conflicts, renames, moves, removals. */
describe('LDAP sync', () => {
  let t: TestApp;
  let slapd: Slapd;
  let admin: string;
  let PEOPLE = '';
  let GROUPS = '';
  /** A client bound as the root DN (the caller unbinds it). */
  const rootClient = async () => {
    const client = new Client({ url: slapd.url, timeout: 10_000, connectTimeout: 10_000 });
    await client.bind(slapd.rootDn, slapd.rootPassword);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    slapd = await startSlapd({
      users: [
        { uid: 'ann', password: 'ann-Pass-1', givenName: 'First' },
        { uid: 'bob', password: 'bob-Pass-1', givenName: 'First' },
      ],
      groups: [
        { cn: 'vpn', members: ['ann', 'bob'] },
        { cn: 'staff', members: ['ann'] },
      ],
    });
    PEOPLE = slapd.peopleBase;
    GROUPS = slapd.groupsBase;
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterEach(() => slapd.stop());

  const configure = async (extra: Record<string, unknown> = {}) => {
    const res = await t.request('PATCH', '/api/v1/settings', {
      cookie: admin,
      payload: {
        ldap_enabled: true,
        ldap_url: slapd.url,
        ldap_bind_username: slapd.rootDn,
        ldap_bind_password: slapd.rootPassword,
        ldap_user_search_base: PEOPLE,
        ldap_group_search_base: GROUPS,
        ldap_sync_enabled: true,
        ...extra,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const sync = async (dryRun = false) => {
    const res = await t.request('POST', '/api/v1/ldap/sync', { cookie: admin, payload: { dry_run: dryRun } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const user = async (name: string) => (await t.request('GET', `/api/v1/user/${name}`, { cookie: admin })).json();
  const modify = async (dn: string, type: string, values: string[]) => {
    const client = await rootClient();
    try {
      await client.modify(dn, [new Change({ operation: 'replace', modification: new Attribute({ type, values }) })]);
    } finally {
      await client.unbind();
    }
  };
  const entry = async (dn: string) => {
    const client = await rootClient();
    try {
      return (await client.search(dn, { scope: 'base' })).searchEntries[0];
    } catch {
      return undefined;
    } finally {
      await client.unbind();
    }
  };
  const events = async (type: string) =>
    (await t.request('GET', '/api/v1/activity_log', { cookie: admin, query: { event: type, per_page: '100' } })).json().items as {
      details: Record<string, unknown>;
      object_name?: string;
    }[];

  describe('LDAP authoritative', () => {
    it('imports users and groups, records each change, and a second run changes nothing', async () => {
      await configure();
      const first = await sync();
      expect(first.failed).toEqual([]);
      expect(first.applied).toBeGreaterThanOrEqual(6);
      expect(await user('ann')).toMatchObject({ email: 'ann@example.com', groups: ['staff', 'vpn'] });
      expect((await events('user.created')).map((e) => e.details.source)).toEqual(['ldap', 'ldap']);
      const before = await snapshot(t.database);
      const second = await sync();
      expect(second).toMatchObject({ changes: [], applied: 0, failed: [] });
      expect(await snapshot(t.database)).toBe(before);
      expect((await events('ldap.sync_completed')).map((e) => e.details.applied)).toEqual([0, first.applied]);
    });

    it('a dry run lists the changes and makes none', async () => {
      await configure();
      const before = await snapshot(t.database);
      const preview = await sync(true);
      expect(preview.dry_run).toBe(true);
      expect(preview.changes).toContainEqual(expect.objectContaining({ side: 'palisade', kind: 'create_user', username: 'ann' }));
      expect(preview.applied).toBeUndefined();
      expect(await snapshot(t.database)).toBe(before);
    });

    it('wins a conflict, follows a rename and a group move, and disables a removed user', async () => {
      await configure();
      await sync();
      const ann = await user('ann');
      await t.request('PUT', '/api/v1/user/ann', { cookie: admin, payload: updateBody(ann, { first_name: 'Palisade' }) });
      await modify(`uid=ann,${PEOPLE}`, 'givenName', ['Directory']);
      const client = await rootClient();
      await client.modifyDN(`uid=ann,${PEOPLE}`, 'uid=anna');
      await client.modify(`cn=vpn,${GROUPS}`, [
        new Change({ operation: 'replace', modification: new Attribute({ type: 'member', values: [`uid=anna,${PEOPLE}`] }) }),
      ]);
      await client.modify(`cn=staff,${GROUPS}`, [
        new Change({
          operation: 'replace',
          modification: new Attribute({ type: 'member', values: [`uid=anna,${PEOPLE}`, `uid=bob,${PEOPLE}`] }),
        }),
      ]);
      await client.unbind();
      expect((await sync()).failed).toEqual([]);
      expect(await user('anna')).toMatchObject({ id: ann.id, first_name: 'Directory', groups: ['staff', 'vpn'] });
      expect((await user('bob')).groups).toEqual(['staff']);

      const remover = await rootClient();
      await remover.del(`uid=bob,${PEOPLE}`);
      await remover.unbind();
      await sync();
      expect(await user('bob')).toMatchObject({ is_active: false });
      await configure({ ldap_removed_user_behavior: 'delete' });
      await sync();
      expect((await t.request('GET', '/api/v1/user/bob', { cookie: admin })).statusCode).toBe(404);
      expect((await events('user.deleted'))[0]?.details.source).toBe('ldap');
    });

    it('never disables the last active admin', async () => {
      const client = await rootClient();
      await client.add(`uid=admin,${PEOPLE}`, {
        objectClass: 'inetOrgPerson',
        uid: 'admin',
        cn: 'Ad Min',
        sn: 'Min',
        mail: 'admin@example.org',
      });
      await client.unbind();
      await configure();
      await sync();
      const remover = await rootClient();
      await remover.del(`uid=admin,${PEOPLE}`);
      await remover.unbind();
      const run = await sync();
      expect(run.skipped).toEqual([{ username: 'admin', change: 'disable_user', reason: 'last_admin' }]);
      expect(await user('admin')).toMatchObject({ is_active: true });
    });
  });

  describe('passwords of linked users', () => {
    const canBind = async (dn: string, password: string) => {
      const client = new Client({ url: slapd.url, timeout: 10_000, connectTimeout: 10_000 });
      try {
        await client.bind(dn, password);
        return true;
      } catch {
        return false;
      } finally {
        await client.unbind().catch(() => undefined);
      }
    };

    it('a password changed in Palisade is written to the entry: a bind with the new one succeeds', async () => {
      await configure();
      await sync();
      const ann = await t.login('ann', 'ann-Pass-1');
      const wrong = await t.request('PUT', '/api/v1/user/change_password', {
        cookie: ann,
        payload: { old_password: 'not-it-1A!', new_password: 'Fresh-Pass-word-2!' },
      });
      expect(problemOf(wrong)).toMatchObject({ status: 400, code: 'auth.invalid_password' });
      const changed = await t.request('PUT', '/api/v1/user/change_password', {
        cookie: ann,
        payload: { old_password: 'ann-Pass-1', new_password: 'Fresh-Pass-word-2!' },
      });
      expect(changed.statusCode, changed.body).toBe(204);
      expect(await canBind(`uid=ann,${PEOPLE}`, 'Fresh-Pass-word-2!')).toBe(true);
      expect(await canBind(`uid=ann,${PEOPLE}`, 'ann-Pass-1')).toBe(false);
      await t.login('ann', 'Fresh-Pass-word-2!');

      const set = await t.request('PUT', '/api/v1/user/bob/password', { cookie: admin, payload: { new_password: 'Admin-Set-pass-3!' } });
      expect(set.statusCode, set.body).toBe(204);
      expect(await canBind(`uid=bob,${PEOPLE}`, 'Admin-Set-pass-3!')).toBe(true);
    });
  });

  describe('Palisade authoritative', () => {
    it('creates, updates and renames entries and group memberships in LDAP', async () => {
      await configure({ ldap_authoritative_source: 'palisade', ldap_sync_groups: ['vpn'] });
      await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: 'vpn' } });
      await t.newUser(admin, 'carol', { first_name: 'Carol' });
      await t.request('POST', '/api/v1/group/vpn', { cookie: admin, payload: { username: 'carol' } });
      const first = await sync();
      expect(first.failed).toEqual([]);
      expect(await entry(`uid=carol,${PEOPLE}`)).toMatchObject({ givenName: 'Carol', mail: 'carol@example.com' });
      // ann and bob are in the LDAP group vpn but have no account: OpenLDAP cannot disable them, so they leave vpn.
      expect(first.skipped).toEqual([]);
      expect((await entry(`cn=vpn,${GROUPS}`))?.member).toBe(`uid=carol,${PEOPLE}`);

      const carol = await user('carol');
      await modify(`uid=carol,${PEOPLE}`, 'givenName', ['Directory']);
      await t.request('PUT', '/api/v1/user/carol', {
        cookie: admin,
        payload: updateBody(carol, { username: 'caroline', first_name: 'Palisade' }),
      });
      expect((await sync()).failed).toEqual([]);
      expect(await entry(`uid=carol,${PEOPLE}`)).toBeUndefined();
      expect(await entry(`uid=caroline,${PEOPLE}`)).toMatchObject({ givenName: 'Palisade', uid: 'caroline' });
      expect((await entry(`cn=vpn,${GROUPS}`))?.member).toBe(`uid=caroline,${PEOPLE}`);
      expect(await sync()).toMatchObject({ changes: [], applied: 0 });
    });
  });

  it('answers 400 ldap.connection_rejected with the reason when the server cannot be reached', async () => {
    await configure({ ldap_url: 'ldap://127.0.0.1:1' });
    const res = await t.request('POST', '/api/v1/ldap/sync', { cookie: admin, payload: {} });
    expect(problemOf(res)).toMatchObject({ status: 400, code: 'ldap.connection_rejected' });
    expect(problemOf(res).body.detail).toMatch(/^LDAP connection rejected: /);
  });

  it('answers 409 while LDAP is off', async () => {
    const res = await t.request('POST', '/api/v1/ldap/sync', { cookie: admin, payload: {} });
    expect(problemOf(res)).toMatchObject({ status: 409, code: 'ldap.not_enabled' });
  });
});
