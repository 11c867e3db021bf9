import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { USERNAME_POLICY } from '#src/modules/auth/auth.service.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { ADMIN_PASSWORD, createTestApp, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { type Slapd, startSlapd } from '#test/support/slapd.js';

const ANN = { uid: 'ann', password: 'ann-Ldap-1', givenName: 'Ann', sn: 'Archer', mail: 'ann@corp.example' };
const BOB = { uid: 'bob', password: 'bob-Ldap-1', givenName: 'Bob', sn: 'Baker', mail: 'bob@corp.example' };
const CAROL = { uid: 'carol', password: 'carol-Ldap-1', mail: 'carol@corp.example' };

describe('LDAP sign-in', () => {
  let t: TestApp;
  let slapd: Slapd;
  let ad: Slapd;
  let admin: string;
  beforeAll(async () => {
    [t, slapd, ad] = await Promise.all([
      createTestApp(),
      startSlapd({ users: [ANN, BOB, CAROL], groups: [{ cn: 'vpn', members: ['ann', 'carol'] }] }),
      startSlapd({ ad: true, users: [{ uid: 'dave', password: 'dave-Ad-1', givenName: 'Dave', sn: 'Domain', mail: 'dave@corp.example' }] }),
    ]);
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
    await enableLdap({});
  });
  afterAll(async () => {
    await Promise.all([t?.close(), slapd?.stop(), ad?.stop()]);
  });

  async function enableLdap(values: Record<string, unknown>) {
    const res = await t.request('PATCH', '/api/v1/settings', {
      cookie: admin,
      payload: {
        ldap_enabled: true,
        ldap_url: slapd.url,
        ldap_bind_username: slapd.rootDn,
        ldap_bind_password: slapd.rootPassword,
        ldap_user_search_base: slapd.peopleBase,
        ldap_group_search_base: slapd.groupsBase,
        ...values,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const signIn = (username: string, password: string) => t.request('POST', '/api/v1/auth', { payload: { username, password } });
  const userRow = (username: string) => new UsersRepo(t.database.db).findByUsername(username);
  const setLdapPassword = (uid: string, password: string) =>
    slapd.modify(`dn: ${slapd.userDn(uid)}\nchangetype: modify\nreplace: userPassword\nuserPassword: ${password}\n`);

  it('creates the account from the LDAP entry on the first sign-in, then checks the LDAP password', async () => {
    expect(await userRow('ann')).toBeUndefined();
    const first = await signIn('ann', ANN.password);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().user).toMatchObject({ username: 'ann', first_name: 'Ann', last_name: 'Archer', email: 'ann@corp.example' });
    const row = await userRow('ann');
    expect(row).toMatchObject({ ldapDn: slapd.userDn('ann'), ldapRdn: 'ann', passwordHash: null });
    const created = (await t.database.db.execute(
      sql`select details from events where type = 'user.created' and object_name = 'ann'`,
    )) as unknown as { rows: { details: Record<string, unknown> }[] };
    expect(created.rows).toEqual([{ details: expect.objectContaining({ source: 'ldap' }) }]);

    // The next sign-in binds as the linked entry: a wrong password fails, a changed one follows LDAP.
    expect((await signIn('ann', ANN.password)).statusCode).toBe(200);
    expect((await signIn('ann', 'not-the-Password-1')).statusCode).toBe(401);
    await setLdapPassword('ann', 'ann-Changed-2');
    try {
      expect((await signIn('ann', ANN.password)).statusCode).toBe(401);
      expect((await signIn('ann', 'ann-Changed-2')).statusCode).toBe(200);
      // By email address too, like local accounts.
      expect((await signIn('ann@corp.example', 'ann-Changed-2')).statusCode).toBe(200);
    } finally {
      await setLdapPassword('ann', ANN.password);
    }
  });

  it('leaves local accounts alone: local password only, even when LDAP has the same username', async () => {
    expect((await signIn('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    await t.newUser(admin, 'bob', { email: 'bob.local@example.com' });
    expect((await signIn('bob', USER_PASSWORD)).statusCode).toBe(200);
    expect((await signIn('bob', BOB.password)).statusCode).toBe(401);
    expect((await userRow('bob'))?.ldapDn).toBeNull();
  });

  it('creates nobody for a wrong password, an unknown name, or with LDAP sign-in off', async () => {
    expect((await signIn('ann', 'wrong-Password-1')).statusCode).toBe(401);
    expect((await signIn('nobody', 'whatever-Pass-1')).statusCode).toBe(401);
    expect((await signIn('nobody@corp.example', 'whatever-Pass-1')).json().code).toBe('auth.invalid_credentials');
    expect(await userRow('ann')).toBeUndefined();
    await enableLdap({ ldap_enabled: false });
    expect((await signIn('ann', ANN.password)).statusCode).toBe(401);
    expect(await userRow('ann')).toBeUndefined();
  });

  it('only lets members of the sync groups in when sync groups are set', async () => {
    await enableLdap({ ldap_sync_groups: ['vpn'] });
    expect((await signIn('bob', BOB.password)).statusCode).toBe(401);
    expect(await userRow('bob')).toBeUndefined();
    const carol = await signIn('carol', CAROL.password);
    expect(carol.statusCode, carol.body).toBe(200);
    expect((await userRow('carol'))?.ldapDn).toBe(slapd.userDn('carol'));
  });

  it('counts LDAP password failures towards the same lockout as local ones', async () => {
    expect((await signIn('ann', ANN.password)).statusCode).toBe(200);
    for (let i = 0; i < USERNAME_POLICY.limit; i++) expect((await signIn('ann', `wrong-Password-${i}`)).statusCode).toBe(401);
    const locked = await signIn('ann', ANN.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('auth.too_many_attempts');
  });

  it('answers a clear 503 when the LDAP server cannot be reached; local accounts still sign in', async () => {
    expect((await signIn('ann', ANN.password)).statusCode).toBe(200);
    await enableLdap({ ldap_url: 'ldap://127.0.0.1:1' });
    const res = await signIn('ann', ANN.password);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ code: 'ldap.unavailable' });
    expect(res.json().detail).toMatch(/LDAP server cannot be reached/);
    expect((await signIn('carol', CAROL.password)).json().code).toBe('ldap.unavailable');
    expect((await signIn('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('works with Active Directory attribute names (sAMAccountName, object class user, RDN cn)', async () => {
    await enableLdap({
      ldap_url: ad.url,
      ldap_bind_username: ad.rootDn,
      ldap_bind_password: ad.rootPassword,
      ldap_user_search_base: ad.peopleBase,
      ldap_group_search_base: ad.groupsBase,
      ldap_uses_ad: true,
      ldap_username_attr: 'sAMAccountName',
      ldap_user_obj_class: 'user',
      ldap_user_rdn_attr: 'cn',
      ldap_group_obj_class: 'group',
    });
    expect((await signIn('dave', 'wrong-Password-1')).statusCode).toBe(401);
    const res = await signIn('dave', 'dave-Ad-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ username: 'dave', first_name: 'Dave', last_name: 'Domain' });
    expect(await userRow('dave')).toMatchObject({ ldapDn: 'cn=dave,ou=people,dc=example,dc=com', ldapRdn: 'dave' });
  });
});
