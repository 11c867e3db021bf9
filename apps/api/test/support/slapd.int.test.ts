import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Slapd, startSlapd } from './slapd.js';

describe('the slapd test fixture', () => {
  let plain: Slapd;
  let ad: Slapd;
  beforeAll(async () => {
    [plain, ad] = await Promise.all([
      startSlapd({
        tls: true,
        users: [{ uid: 'ann', password: 'ann-Secret-1' }],
        groups: [{ cn: 'vpn', members: ['ann'] }],
      }),
      startSlapd({ ad: true, users: [{ uid: 'bob', password: 'bob-Secret-1' }], groups: [{ cn: 'staff', members: ['bob'] }] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), ad?.stop()]);
  });

  it('serves the loaded users and groups, with memberOf, on loopback with a CA for TLS', async () => {
    expect(plain.url).toMatch(/^ldap:\/\/127\.0\.0\.1:\d+$/);
    expect(plain.ldapsUrl).toMatch(/^ldaps:\/\/127\.0\.0\.1:\d+$/);
    expect(plain.caCert).toContain('BEGIN CERTIFICATE');
    const ann = await plain.search(plain.peopleBase, '(uid=ann)', ['uid', 'mail', 'memberOf']);
    expect(ann).toContain('dn: uid=ann,ou=people,dc=example,dc=com');
    expect(ann).toContain('memberOf: cn=vpn,ou=groups,dc=example,dc=com');
    // Later writes keep memberOf through the overlay.
    await plain.modify(
      `dn: ${plain.userDn('cid')}\nobjectClass: inetOrgPerson\nuid: cid\ncn: Cid\nsn: C\nuserPassword: x\n\ndn: ${plain.groupDn('vpn')}\nchangetype: modify\nadd: member\nmember: ${plain.userDn('cid')}\n`,
    );
    expect(await plain.search(plain.peopleBase, '(uid=cid)', ['memberOf'])).toContain('memberOf: cn=vpn,ou=groups,dc=example,dc=com');
  });

  it('speaks Active Directory names in AD mode', async () => {
    const bob = await ad.search(ad.peopleBase, '(sAMAccountName=bob)', ['objectClass', 'memberOf']);
    expect(bob).toContain('dn: cn=bob,ou=people,dc=example,dc=com');
    expect(bob).toContain('objectClass: user');
    expect(bob).toContain('memberOf: cn=staff,ou=groups,dc=example,dc=com');
    expect(await ad.search(ad.groupsBase, '(objectClass=group)', ['cn'])).toContain('cn: staff');
  });
});
