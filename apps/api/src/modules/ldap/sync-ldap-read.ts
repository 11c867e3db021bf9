import type { Client, Entry } from 'ldapts';
import type { LdapConfig } from './ldap-config.js';
import { type LdapGroup, type LdapSide, type LdapUser, lower } from './sync-model.js';

/** LDAP's side of a sync, with the DNs the LDAP applier needs to address entries by name. */
export interface LdapDirectory {
  side: LdapSide;
  /** Lower-cased username → entry DN. */
  userDns: Map<string, string>;
  /** Lower-cased group name → group DN. */
  groupDns: Map<string, string>;
}

/** Attribute names of the synced user attributes (the same in OpenLDAP's inetOrgPerson and AD). */
export const USER_ATTRIBUTES = { firstName: 'givenName', lastName: 'sn', email: 'mail', phone: 'telephoneNumber' } as const;
/** AD's userAccountControl bit for a disabled account. */
export const ACCOUNTDISABLE = 2;
const PAGE_SIZE = 500;

/** `memberUid` (posixGroup) lists usernames; every other member attribute lists DNs. */
export const membersAreUsernames = (config: Pick<LdapConfig, 'groupMemberAttr'>) => lower(config.groupMemberAttr) === 'memberuid';

/** DNs compare case-insensitively and without the spaces some servers put after commas. */
export const normalizeDn = (dn: string) => lower(dn).replace(/,\s+/g, ',');

const first = (entry: Entry, attr: string): string => {
  const key = Object.keys(entry).find((k) => lower(k) === lower(attr));
  const value = key ? entry[key] : undefined;
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined ? '' : Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
};

const all = (entry: Entry, attr: string): string[] => {
  const key = Object.keys(entry).find((k) => lower(k) === lower(attr));
  const value = key ? entry[key] : undefined;
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
};

/** Reads users and groups with the paged results control, so directories of any size are read whole. */
export async function readLdapDirectory(client: Client, config: LdapConfig): Promise<LdapDirectory> {
  const userAttributes = [config.usernameAttr, ...Object.values(USER_ATTRIBUTES), ...(config.usesAd ? ['userAccountControl'] : [])];
  const { searchEntries: userEntries } = await client.search(config.userSearchBase, {
    scope: 'sub',
    filter: `(objectClass=${config.userObjClass})`,
    attributes: userAttributes,
    paged: { pageSize: PAGE_SIZE },
  });
  const users: LdapUser[] = [];
  const userDns = new Map<string, string>();
  const usernameByDn = new Map<string, string>();
  for (const e of userEntries) {
    const username = first(e, config.usernameAttr);
    if (!username) continue;
    const phone = first(e, USER_ATTRIBUTES.phone);
    const control = Number(first(e, 'userAccountControl') || 0);
    users.push({
      dn: e.dn,
      username,
      firstName: first(e, USER_ATTRIBUTES.firstName),
      lastName: first(e, USER_ATTRIBUTES.lastName),
      email: first(e, USER_ATTRIBUTES.email),
      phone: phone || null,
      disabled: config.usesAd ? (control & ACCOUNTDISABLE) !== 0 : undefined,
    });
    userDns.set(lower(username), e.dn);
    usernameByDn.set(normalizeDn(e.dn), username);
  }
  const { groups, groupDns } = await readGroups(client, config, usernameByDn);
  return { side: { users, groups }, userDns, groupDns };
}

async function readGroups(client: Client, config: LdapConfig, usernameByDn: Map<string, string>) {
  const { searchEntries } = await client.search(config.groupSearchBase, {
    scope: 'sub',
    filter: `(objectClass=${config.groupObjClass})`,
    attributes: [config.groupnameAttr, config.groupMemberAttr],
    paged: { pageSize: PAGE_SIZE },
  });
  const byUsername = new Map([...usernameByDn.values()].map((u) => [lower(u), u]));
  const groups: LdapGroup[] = [];
  const groupDns = new Map<string, string>();
  for (const e of searchEntries) {
    const name = first(e, config.groupnameAttr);
    if (!name) continue;
    const values = all(e, config.groupMemberAttr);
    // Members that are not synced users (nested groups, entries outside the user base) are ignored.
    const members = values
      .map((v) => (membersAreUsernames(config) ? byUsername.get(lower(v)) : usernameByDn.get(normalizeDn(v))))
      .filter((u): u is string => u !== undefined);
    groups.push({ name, members });
    groupDns.set(lower(name), e.dn);
  }
  return { groups, groupDns };
}
