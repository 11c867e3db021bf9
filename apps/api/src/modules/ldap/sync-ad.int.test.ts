import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, updateBody } from '#test/helpers.js';
import { type Slapd, startSlapd } from '#test/support/slapd.js';

/**
 * Active Directory mode against slapd configured with AD's names (object classes `user` and
 * `group`, `sAMAccountName`, `userAccountControl`): usernames come from sAMAccountName, entries are
 * named by `cn`, and the disabled state syncs through userAccountControl's ACCOUNTDISABLE bit.
 */
describe('LDAP sync in Active Directory mode', () => {
  let t: TestApp;
  let slapd: Slapd;
  let admin: string;
  beforeAll(async () => {
    slapd = await startSlapd({
      ad: true,
      users: [
        { uid: 'erin', password: 'erin-Pass-1', givenName: 'Erin' },
        { uid: 'finn', password: 'finn-Pass-1', givenName: 'Finn' },
      ],
      groups: [{ cn: 'vpn', members: ['erin', 'finn'] }],
    });
    t = await createTestApp();
    admin = await t.loginAdmin();
  });
  afterAll(async () => {
    await t.close();
    await slapd.stop();
  });

  const settings = (extra: Record<string, unknown>) =>
    t.request('PATCH', '/api/v1/settings', {
      cookie: admin,
      payload: {
        ldap_enabled: true,
        ldap_url: slapd.url,
        ldap_bind_username: slapd.rootDn,
        ldap_bind_password: slapd.rootPassword,
        ldap_user_search_base: slapd.peopleBase,
        ldap_group_search_base: slapd.groupsBase,
        ldap_uses_ad: true,
        ldap_username_attr: 'sAMAccountName',
        ldap_user_obj_class: 'user',
        ldap_group_obj_class: 'group',
        ldap_user_rdn_attr: 'cn',
        ldap_sync_groups: ['vpn'],
        ...extra,
      },
    });
  const sync = async () => {
    const res = await t.request('POST', '/api/v1/ldap/sync', { cookie: admin, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const user = async (name: string) => (await t.request('GET', `/api/v1/user/${name}`, { cookie: admin })).json();

  it('imports sAMAccountName users, follows the disabled bit, and writes it back when Palisade is authoritative', async () => {
    expect((await settings({})).statusCode).toBe(200);
    await slapd.modify(`dn: ${slapd.userDn('finn')}\nchangetype: modify\nreplace: userAccountControl\nuserAccountControl: 514\n`);
    expect((await sync()).failed).toEqual([]);
    expect(await user('erin')).toMatchObject({ first_name: 'Erin', is_active: true, groups: ['vpn'] });
    expect(await user('finn')).toMatchObject({ is_active: false });
    expect((await sync()).changes).toEqual([]);

    expect((await settings({ ldap_authoritative_source: 'palisade' })).statusCode).toBe(200);
    const erin = await user('erin');
    const put = await t.request('PUT', '/api/v1/user/erin', {
      cookie: admin,
      payload: updateBody(erin, { is_active: false }),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await sync()).failed).toEqual([]);
    expect(await slapd.search(slapd.userDn('erin'), '(objectClass=user)', ['userAccountControl'])).toMatch(/userAccountControl: 514\n/);
    expect((await sync()).changes).toEqual([]);
  });
});
