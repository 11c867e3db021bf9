import { AdminGuard } from './sync-admin-guard.js';
import { type SyncPair, matchUsers } from './sync-match.js';
import {
  type LdapChange,
  type LdapSide,
  type LdapUser,
  lower,
  type PalisadeChange,
  type PalisadeSide,
  type PalisadeUser,
  type SyncAttributes,
  type SyncConfig,
  type SyncPlan,
} from './sync-model.js';

/**
 * The LDAP sync rule (docs/ldap.md → Sync): wherever the two sides differ, the authoritative
 * side's value is written to the other side. Users only on the authoritative side are created on
 * the other; a linked user gone from the authoritative side is disabled or deleted there
 * (`removedUserBehavior`); the last active admin is never disabled, deleted or demoted (skipped,
 * with the reason). Pure: the appliers carry the changes out in order.
 */
export function planSync(ldap: LdapSide, palisade: PalisadeSide, config: SyncConfig): SyncPlan {
  const pairs = matchUsers(ldap.users, palisade.users);
  return config.authority === 'ldap' ? planFromLdap(pairs, ldap, palisade, config) : planFromPalisade(pairs, ldap, palisade, config);
}

const ATTRIBUTES = ['username', 'firstName', 'lastName', 'email', 'phone'] as const;

/** The attributes of `to` that differ from `from`. */
export function attributeDiff(from: SyncAttributes, to: SyncAttributes): Partial<SyncAttributes> {
  const set: Partial<SyncAttributes> = {};
  for (const key of ATTRIBUTES) {
    const a = key === 'phone' ? from.phone || null : from[key];
    const b = key === 'phone' ? to.phone || null : to[key];
    if (a !== b) Object.assign(set, { [key]: b });
  }
  return set;
}

const attributesOf = (u: SyncAttributes): SyncAttributes => ({
  username: u.username,
  firstName: u.firstName,
  lastName: u.lastName,
  email: u.email,
  phone: u.phone || null,
});

/** Group names in `groups` that the sync manages, lower-cased. */
function managedSet(config: SyncConfig, authoritativeGroups: string[]): Set<string> {
  return new Set((config.syncGroups.length > 0 ? config.syncGroups : authoritativeGroups).map(lower));
}

/** LDAP group names (lower-cased) each username (lower-cased) belongs to. */
function ldapMemberships(ldap: LdapSide): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const g of ldap.groups) {
    for (const m of g.members) {
      const key = lower(m);
      map.set(key, (map.get(key) ?? new Set()).add(lower(g.name)));
    }
  }
  return map;
}

const inSyncGroups = (config: SyncConfig, groups: Iterable<string>) =>
  config.syncGroups.length === 0 || [...groups].some((g) => config.syncGroups.some((s) => lower(s) === lower(g)));

/** Group names as spelled on the side that has them, by lower-cased name. */
const spelled = (names: string[]) => new Map(names.map((n) => [lower(n), n]));

function planFromLdap(pairs: SyncPair[], ldap: LdapSide, palisade: PalisadeSide, config: SyncConfig): SyncPlan {
  const changes: PalisadeChange[] = [];
  const guard = new AdminGuard(palisade);
  const managed = managedSet(
    config,
    ldap.groups.map((g) => g.name),
  );
  const memberOf = ldapMemberships(ldap);
  const ldapNames = spelled(ldap.groups.map((g) => g.name));
  const palisadeNames = spelled(palisade.groups.map((g) => g.name));
  for (const name of managed) {
    if (!palisadeNames.has(name) && ldapNames.has(name))
      changes.push({ side: 'palisade', kind: 'create_group', group: ldapNames.get(name) ?? name });
  }
  const groupName = (key: string) => palisadeNames.get(key) ?? ldapNames.get(key) ?? key;
  for (const { ldap: entry, palisade: account } of pairs) {
    const groups = entry ? (memberOf.get(lower(entry.username)) ?? new Set<string>()) : new Set<string>();
    const inScope = entry !== undefined && inSyncGroups(config, groups);
    if (inScope && !account) {
      changes.push({ side: 'palisade', kind: 'create_user', user: attributesOf(entry), dn: entry.dn, isActive: entry.disabled !== true });
      for (const g of groups)
        if (managed.has(g)) changes.push({ side: 'palisade', kind: 'add_member', group: groupName(g), username: entry.username });
    } else if (inScope && account) {
      changes.push(...updateAccount(entry, account, guard));
      const want = [...groups].filter((g) => managed.has(g));
      const have = account.groups.filter((g) => managed.has(lower(g))).map(lower);
      for (const g of want)
        if (!have.includes(g)) changes.push({ side: 'palisade', kind: 'add_member', group: groupName(g), username: entry.username });
      for (const g of have) {
        if (want.includes(g)) continue;
        const change: PalisadeChange = { side: 'palisade', kind: 'remove_member', group: groupName(g), username: entry.username };
        if (guard.allowLeave(account, g, change)) changes.push(change);
      }
    } else if (account && account.ldapDn !== null) {
      changes.push(...removeAccount(account, config, guard));
    }
  }
  return { changes: orderCreatesFirst(changes), skipped: guard.skipped };
}

/** Writes the entry's attributes, link and disabled state onto the account. */
function updateAccount(entry: LdapUser, account: PalisadeUser, guard: AdminGuard): PalisadeChange[] {
  const changes: PalisadeChange[] = [];
  const ref = { userId: account.id, username: account.username };
  if (account.ldapDn !== entry.dn) changes.push({ side: 'palisade', kind: 'link_user', ...ref, dn: entry.dn });
  const set = attributeDiff(account, entry);
  if (Object.keys(set).length > 0) changes.push({ side: 'palisade', kind: 'update_user', ...ref, set });
  const renamed = { userId: account.id, username: entry.username };
  const shouldBeActive = entry.disabled !== true;
  if (shouldBeActive && !account.isActive) changes.push({ side: 'palisade', kind: 'enable_user', ...renamed });
  if (!shouldBeActive && account.isActive) {
    const change: PalisadeChange = { side: 'palisade', kind: 'disable_user', ...renamed };
    if (guard.allowRemove(account, change)) changes.push(change);
  }
  return changes;
}

function removeAccount(account: PalisadeUser, config: SyncConfig, guard: AdminGuard): PalisadeChange[] {
  const ref = { userId: account.id, username: account.username };
  if (config.removedUserBehavior === 'disable' && !account.isActive) return [];
  const change: PalisadeChange = {
    side: 'palisade',
    kind: config.removedUserBehavior === 'delete' ? 'delete_user' : 'disable_user',
    ...ref,
  };
  return guard.allowRemove(account, change) ? [change] : [];
}

/** Groups before the memberships that need them. */
const orderCreatesFirst = <T extends { kind: string }>(changes: T[]) => [
  ...changes.filter((c) => c.kind === 'create_group'),
  ...changes.filter((c) => c.kind !== 'create_group'),
];

function planFromPalisade(pairs: SyncPair[], ldap: LdapSide, palisade: PalisadeSide, config: SyncConfig): SyncPlan {
  const changes: (LdapChange | PalisadeChange)[] = [];
  const skipped: SyncPlan['skipped'] = [];
  const managed = managedSet(
    config,
    palisade.groups.map((g) => g.name),
  );
  const memberOf = ldapMemberships(ldap);
  const ldapGroups = new Set(ldap.groups.map((g) => lower(g.name)));
  const ldapNames = spelled(ldap.groups.map((g) => g.name));
  const palisadeNames = spelled(palisade.groups.map((g) => g.name));
  const newGroups = new Map<string, string[]>();
  const addMember = (group: string, username: string) => {
    if (ldapGroups.has(group)) changes.push({ side: 'ldap', kind: 'add_member', group: palisadeNames.get(group) ?? group, username });
    else newGroups.set(group, [...(newGroups.get(group) ?? []), username]);
  };
  for (const { ldap: entry, palisade: account } of pairs) {
    const ldapGroupsOfEntry = entry ? [...(memberOf.get(lower(entry.username)) ?? [])] : [];
    const have = ldapGroupsOfEntry.filter((g) => managed.has(g));
    if (account && inSyncGroups(config, account.groups)) {
      const dn = entry ? syncEntry(entry, account, config, changes) : createEntry(account, config, changes);
      if (account.ldapDn !== dn) changes.push({ side: 'palisade', kind: 'link_user', userId: account.id, username: account.username, dn });
      const want = account.groups.map(lower).filter((g) => managed.has(g));
      for (const g of want) if (!have.includes(g)) addMember(g, account.username);
      for (const g of have) {
        if (!want.includes(g))
          changes.push({ side: 'ldap', kind: 'remove_member', group: ldapNames.get(g) ?? g, username: account.username });
      }
    } else if (entry && inSyncGroups(config, ldapGroupsOfEntry)) {
      // Out of Palisade's scope: an account that left the sync groups leaves them in LDAP too.
      const leave = (g: string): LdapChange => ({
        side: 'ldap',
        kind: 'remove_member',
        group: ldapNames.get(g) ?? g,
        username: entry.username,
      });
      if (account) changes.push(...have.map(leave));
      else {
        const inSync =
          config.syncGroups.length === 0 ? [] : ldapGroupsOfEntry.filter((g) => managed.has(g)).map((g) => ldapNames.get(g) ?? g);
        removeEntry(entry, inSync, config, changes, skipped);
      }
    }
  }
  const creates = [...newGroups].map(
    ([g, members]): LdapChange => ({ side: 'ldap', kind: 'create_group', group: palisadeNames.get(g) ?? g, members }),
  );
  // Members join before others leave: a groupOfNames may never be left without a member.
  const of = (kind: string) => changes.filter((c) => c.kind === kind);
  const rest = changes.filter((c) => c.kind !== 'add_member' && c.kind !== 'remove_member');
  return { changes: [...rest, ...creates, ...of('add_member'), ...of('remove_member')], skipped };
}

/** Writes the account onto its existing entry; returns the entry's DN after the sync. */
function syncEntry(entry: LdapUser, account: PalisadeUser, config: SyncConfig, out: (LdapChange | PalisadeChange)[]): string {
  let dn = entry.dn;
  const set = attributeDiff(entry, account);
  if (set.username !== undefined && lower(config.userRdnAttr) === lower(config.usernameAttr)) {
    const newDn = replaceRdnValue(entry.dn, account.username);
    if (lower(newDn) !== lower(entry.dn) || newDn !== entry.dn) {
      out.push({ side: 'ldap', kind: 'rename_user', dn, username: entry.username, newDn });
      dn = newDn;
    }
  }
  if (Object.keys(set).length > 0) out.push({ side: 'ldap', kind: 'update_user', dn, username: account.username, set });
  if (config.ldapHasDisabledState && entry.disabled === account.isActive) {
    out.push({ side: 'ldap', kind: account.isActive ? 'enable_user' : 'disable_user', dn, username: account.username });
  }
  return dn;
}

function createEntry(account: PalisadeUser, config: SyncConfig, out: (LdapChange | PalisadeChange)[]): string {
  const dn = `${config.userRdnAttr}=${escapeDnValue(account.username)},${config.userSearchBase}`;
  out.push({ side: 'ldap', kind: 'create_user', dn, user: attributesOf(account) });
  if (config.ldapHasDisabledState && !account.isActive) out.push({ side: 'ldap', kind: 'disable_user', dn, username: account.username });
  return dn;
}

/**
 * An entry gone from Palisade: deleted, or disabled. OpenLDAP has no disabled state; there the
 * entry leaves the sync groups instead (which ends its Palisade sign-in), or, without sync groups,
 * is left as it is and reported.
 */
function removeEntry(
  entry: LdapUser,
  syncGroupsOfEntry: string[],
  config: SyncConfig,
  out: (LdapChange | PalisadeChange)[],
  skipped: SyncPlan['skipped'],
): void {
  const ref = { dn: entry.dn, username: entry.username };
  if (config.removedUserBehavior === 'delete') out.push({ side: 'ldap', kind: 'delete_user', ...ref });
  else if (config.ldapHasDisabledState) {
    if (entry.disabled !== true) out.push({ side: 'ldap', kind: 'disable_user', ...ref });
  } else if (syncGroupsOfEntry.length > 0) {
    for (const group of syncGroupsOfEntry) out.push({ side: 'ldap', kind: 'remove_member', group, username: entry.username });
  } else skipped.push({ username: entry.username, change: 'disable_user', reason: 'no_disabled_state' });
}

/** RFC 4514 escaping of an attribute value in a DN. */
export function escapeDnValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
    .replace(/^[ #]/, (c) => `\\${c}`)
    .replace(/ $/, '\\ ');
}

/** `uid=old,ou=people,…` → `uid=<value>,ou=people,…`. */
export function replaceRdnValue(dn: string, value: string): string {
  const comma = firstUnescapedComma(dn);
  const rdn = comma < 0 ? dn : dn.slice(0, comma);
  const attr = rdn.slice(0, rdn.indexOf('='));
  return `${attr}=${escapeDnValue(value)}${comma < 0 ? '' : dn.slice(comma)}`;
}

function firstUnescapedComma(dn: string): number {
  for (let i = 0; i < dn.length; i++) {
    if (dn[i] === '\\') i++;
    else if (dn[i] === ',') return i;
  }
  return -1;
}
