import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LdapSide, LdapUser, PalisadeSide, PalisadeUser, SyncConfig } from './sync-model.js';
import { escapeDnValue, planSync, replaceRdnValue } from './sync-plan.js';
import { simulateSync } from './sync-simulate.test-support.js';

const BASE = 'ou=people,dc=example,dc=org';
const config = (over: Partial<SyncConfig> = {}): SyncConfig => ({
  authority: 'ldap',
  removedUserBehavior: 'disable',
  syncGroups: [],
  userRdnAttr: 'uid',
  usernameAttr: 'uid',
  userSearchBase: BASE,
  ldapHasDisabledState: false,
  ...over,
});
const entry = (username: string, over: Partial<LdapUser> = {}): LdapUser => ({
  dn: `uid=${username},${BASE}`,
  username,
  firstName: 'First',
  lastName: 'Last',
  email: `${username}@example.org`,
  phone: null,
  ...over,
});
const account = (id: number, username: string, over: Partial<PalisadeUser> = {}): PalisadeUser => ({
  id,
  username,
  firstName: 'First',
  lastName: 'Last',
  email: `${username}@example.org`,
  phone: null,
  ldapDn: `uid=${username},${BASE}`,
  isActive: true,
  groups: [],
  ...over,
});
const admin = account(1, 'admin', { ldapDn: null, groups: ['admin'] });
const palisade = (...users: PalisadeUser[]): PalisadeSide => ({ users: [admin, ...users], groups: [{ name: 'admin', isAdmin: true }] });

describe('planSync with LDAP authoritative', () => {
  it('creates an entry only LDAP has, with its groups, and leaves local accounts alone', () => {
    const ldap: LdapSide = { users: [entry('ann')], groups: [{ name: 'staff', members: ['ann'] }] };
    expect(planSync(ldap, palisade(), config()).changes).toEqual([
      { side: 'palisade', kind: 'create_group', group: 'staff' },
      { side: 'palisade', kind: 'create_user', user: expect.objectContaining({ username: 'ann' }), dn: entry('ann').dn, isActive: true },
      { side: 'palisade', kind: 'add_member', group: 'staff', username: 'ann' },
    ]);
  });

  it('overwrites an attribute changed on both sides with the LDAP value', () => {
    const ldap: LdapSide = { users: [entry('ann', { firstName: 'Anna' })], groups: [] };
    const plan = planSync(ldap, palisade(account(2, 'ann', { firstName: 'Annie' })), config());
    expect(plan.changes).toEqual([{ side: 'palisade', kind: 'update_user', userId: 2, username: 'ann', set: { firstName: 'Anna' } }]);
  });

  it('follows a rename in LDAP (new DN) by email', () => {
    const ldap: LdapSide = { users: [entry('anna', { email: 'ann@example.org' })], groups: [] };
    const plan = planSync(ldap, palisade(account(2, 'ann')), config());
    expect(plan.changes).toEqual([
      { side: 'palisade', kind: 'link_user', userId: 2, username: 'ann', dn: entry('anna').dn },
      { side: 'palisade', kind: 'update_user', userId: 2, username: 'ann', set: { username: 'anna' } },
    ]);
  });

  it('disables, or deletes, a linked account whose entry is gone, but never the last admin', () => {
    const linkedAdmin = account(1, 'root', { groups: ['admin'] });
    const side: PalisadeSide = { users: [linkedAdmin, account(2, 'ann')], groups: [{ name: 'admin', isAdmin: true }] };
    const empty: LdapSide = { users: [], groups: [] };
    expect(planSync(empty, side, config())).toEqual({
      changes: [{ side: 'palisade', kind: 'disable_user', userId: 2, username: 'ann' }],
      skipped: [{ username: 'root', change: 'disable_user', reason: 'last_admin' }],
    });
    expect(planSync(empty, side, config({ removedUserBehavior: 'delete' })).changes).toEqual([
      { side: 'palisade', kind: 'delete_user', userId: 2, username: 'ann' },
    ]);
  });

  it('with sync groups, treats a user moved out of them as removed', () => {
    const ldap: LdapSide = {
      users: [entry('ann')],
      groups: [
        { name: 'vpn', members: [] },
        { name: 'other', members: ['ann'] },
      ],
    };
    const side = palisade(account(2, 'ann', { groups: ['vpn'] }));
    side.groups.push({ name: 'vpn', isAdmin: false });
    const plan = planSync(ldap, side, config({ syncGroups: ['vpn'] }));
    expect(plan.changes).toEqual([{ side: 'palisade', kind: 'disable_user', userId: 2, username: 'ann' }]);
  });
});

describe('planSync with Palisade authoritative', () => {
  const authority = 'palisade' as const;
  it('creates the entry of an account LDAP lacks and links the account', () => {
    const plan = planSync(
      { users: [], groups: [] },
      palisade(account(2, 'ann', { ldapDn: null })),
      config({ authority, syncGroups: ['vpn'] }),
    );
    expect(plan.changes).toEqual([]);
    const withGroup = planSync(
      { users: [], groups: [] },
      palisade(account(2, 'ann', { ldapDn: null, groups: ['vpn'] })),
      config({ authority, syncGroups: ['vpn'] }),
    );
    expect(withGroup.changes).toEqual([
      { side: 'ldap', kind: 'create_user', dn: entry('ann').dn, user: expect.objectContaining({ username: 'ann' }) },
      { side: 'palisade', kind: 'link_user', userId: 2, username: 'ann', dn: entry('ann').dn },
      { side: 'ldap', kind: 'create_group', group: 'vpn', members: ['ann'] },
    ]);
  });

  it('renames the entry (modrdn) when the username is its RDN', () => {
    const ldap: LdapSide = { users: [entry('ann')], groups: [] };
    const plan = planSync(ldap, palisade(account(2, 'anna', { ldapDn: entry('ann').dn })), config({ authority, syncGroups: [] }));
    expect(plan.changes).toContainEqual({
      side: 'ldap',
      kind: 'rename_user',
      dn: entry('ann').dn,
      username: 'ann',
      newDn: entry('anna').dn,
    });
    expect(plan.changes).toContainEqual({ side: 'palisade', kind: 'link_user', userId: 2, username: 'anna', dn: entry('anna').dn });
  });

  it('disables an entry removed from Palisade, or without a disabled state takes it out of the sync groups', () => {
    const ldap: LdapSide = { users: [entry('gone')], groups: [{ name: 'vpn', members: ['gone'] }] };
    const only = { authority, syncGroups: ['vpn'] };
    expect(planSync(ldap, palisade(), config(only)).changes).toEqual([
      { side: 'ldap', kind: 'remove_member', group: 'vpn', username: 'gone' },
    ]);
    expect(planSync(ldap, palisade(), config({ ...only, ldapHasDisabledState: true })).changes).toEqual([
      { side: 'ldap', kind: 'disable_user', dn: entry('gone').dn, username: 'gone' },
    ]);
    expect(planSync(ldap, palisade(), config({ authority })).skipped).toEqual([
      { username: 'gone', change: 'disable_user', reason: 'no_disabled_state' },
    ]);
  });
});

describe('DN values', () => {
  it('escapes and replaces the RDN value', () => {
    expect(escapeDnValue('a,b+c')).toBe('a\\,b\\+c');
    expect(replaceRdnValue('uid=a\\,b,ou=x,dc=y', 'new')).toBe('uid=new,ou=x,dc=y');
  });
});

const GROUPS = ['staff', 'VPN', 'dev', 'admin'];

/** Both sides of a small organisation: each person is on one side, both, or neither, with drift. */
const worldArb = fc
  .record({
    people: fc.array(
      fc.record({
        inLdap: fc.boolean(),
        inPalisade: fc.boolean(),
        linked: fc.constantFrom('none', 'current', 'stale'),
        renamedInLdap: fc.boolean(),
        renamedInPalisade: fc.boolean(),
        firstLdap: fc.constantFrom('Ann', 'Bo'),
        firstPalisade: fc.constantFrom('Ann', 'Bo'),
        phone: fc.constantFrom(null, '', '555'),
        disabledLdap: fc.boolean(),
        activePalisade: fc.boolean(),
        ldapGroups: fc.subarray(GROUPS),
        palisadeGroups: fc.subarray(GROUPS),
      }),
      { maxLength: 8 },
    ),
    config: fc.record({
      authority: fc.constantFrom('ldap' as const, 'palisade' as const),
      removedUserBehavior: fc.constantFrom('disable' as const, 'delete' as const),
      syncGroups: fc.subarray(['staff', 'vpn', 'nothing']),
      userRdnAttr: fc.constantFrom('uid', 'cn'),
      ldapHasDisabledState: fc.boolean(),
    }),
  })
  .map(({ people, config: c }) => {
    const cfg: SyncConfig = { ...c, usernameAttr: 'uid', userSearchBase: BASE };
    const dnOf = (i: number, name: string) => (cfg.userRdnAttr === 'uid' ? `uid=${name},${BASE}` : `cn=Person ${i},${BASE}`);
    const ldap: LdapSide = { users: [], groups: GROUPS.filter((g) => g !== 'dev').map((name) => ({ name, members: [] })) };
    const side: PalisadeSide = {
      users: [{ ...admin }],
      groups: GROUPS.map((name) => ({ name: name.toLowerCase(), isAdmin: name === 'admin' })),
    };
    people.forEach((p, i) => {
      const ldapName = p.renamedInLdap ? `renamed${i}` : `user${i}`;
      const email = `user${i}@example.org`;
      if (p.inLdap) {
        ldap.users.push({
          ...entry(ldapName),
          dn: dnOf(i, ldapName),
          email,
          firstName: p.firstLdap,
          phone: p.phone,
          disabled: cfg.ldapHasDisabledState ? p.disabledLdap : undefined,
        });
        for (const g of ldap.groups) if (p.ldapGroups.includes(g.name)) g.members.push(ldapName);
      }
      if (p.inPalisade) {
        const name = p.renamedInPalisade ? `palisade${i}` : `user${i}`;
        const ldapDn = p.linked === 'none' ? null : p.linked === 'current' && p.inLdap ? dnOf(i, ldapName) : `uid=stale${i},${BASE}`;
        side.users.push(
          account(i + 2, name, {
            email,
            firstName: p.firstPalisade,
            phone: p.phone,
            ldapDn,
            isActive: p.activePalisade,
            groups: p.palisadeGroups.map((g) => g.toLowerCase()),
          }),
        );
      }
    });
    return { ldap, palisade: side, config: cfg };
  });

describe('planSync idempotence', () => {
  it('plans no change for the result of carrying out its plan', () => {
    fc.assert(
      fc.property(worldArb, ({ ldap, palisade: side, config: cfg }) => {
        const first = planSync(ldap, side, cfg);
        const after = simulateSync(ldap, side, first.changes, cfg);
        expect(planSync(after.ldap, after.palisade, cfg).changes).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('never plans to disable, delete or demote the last active admin', () => {
    fc.assert(
      fc.property(worldArb, ({ ldap, palisade: side, config: cfg }) => {
        const after = simulateSync(ldap, side, planSync(ldap, side, cfg).changes, cfg).palisade;
        expect(after.users.some((u) => u.isActive && u.groups.some((g) => g.toLowerCase() === 'admin'))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
