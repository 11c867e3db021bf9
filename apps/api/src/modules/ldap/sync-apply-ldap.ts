import { createHash, randomBytes } from 'node:crypto';
import { Attribute, Change, type Client } from 'ldapts';
import type { LdapConfig } from './ldap-config.js';
import type { ApplyOutcome } from './sync-apply-palisade.js';
import { ACCOUNTDISABLE, type LdapDirectory, membersAreUsernames, normalizeDn, USER_ATTRIBUTES } from './sync-ldap-read.js';
import { type LdapChange, lower, type SyncAttributes } from './sync-model.js';
import { escapeDnValue } from './sync-plan.js';

const replace = (type: string, values: string[] | Buffer[]) =>
  new Change({ operation: 'replace', modification: new Attribute({ type, values }) });
const add = (type: string, value: string) => new Change({ operation: 'add', modification: new Attribute({ type, values: [value] }) });
const remove = (type: string, value: string) => new Change({ operation: 'delete', modification: new Attribute({ type, values: [value] }) });

/**
 * Makes the LDAP half of a plan through ldapts, change by change (LDAP has no transactions); a
 * change the server refuses fails alone and the next run plans it again. `writes` counts the LDAP
 * operations sent (the bench checks a quiet run sends none).
 */
export async function applyLdapChanges(
  client: Client,
  config: LdapConfig,
  directory: LdapDirectory,
  changes: LdapChange[],
): Promise<ApplyOutcome & { writes: number }> {
  const outcome = { applied: 0, failed: [] as ApplyOutcome['failed'], writes: 0 };
  const op = async <T>(run: () => Promise<T>): Promise<T> => {
    outcome.writes += 1;
    return run();
  };
  for (const change of changes) {
    try {
      await applyOne(client, config, directory, change, op);
      outcome.applied += 1;
    } catch (error) {
      outcome.failed.push({ change, code: 'ldap.sync_failed', message: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcome;
}

type Op = <T>(run: () => Promise<T>) => Promise<T>;

function attributeChanges(set: Partial<SyncAttributes>, config: LdapConfig): Change[] {
  const list: Change[] = [];
  if (set.username !== undefined) list.push(replace(config.usernameAttr, [set.username]));
  for (const key of ['firstName', 'lastName', 'email', 'phone'] as const) {
    const value = set[key];
    if (value !== undefined) list.push(replace(USER_ATTRIBUTES[key], value ? [value] : []));
  }
  return list;
}

/** The new entry's attributes: inetOrgPerson needs `cn` and `sn`; empty values are left out. */
function entryOf(user: SyncAttributes, dn: string, config: LdapConfig): Record<string, string | string[]> {
  const entry: Record<string, string | string[]> = {
    objectClass: [config.userObjClass, ...config.userAuxiliaryObjClasses],
    [config.usernameAttr]: user.username,
    cn: `${user.firstName} ${user.lastName}`.trim() || user.username,
    sn: user.lastName || user.username,
  };
  const rdn = /^([^=]+)=/.exec(dn)?.[1];
  if (rdn && lower(rdn) !== lower(config.usernameAttr) && lower(rdn) !== 'cn') entry[rdn] = user.username;
  if (user.firstName) entry[USER_ATTRIBUTES.firstName] = user.firstName;
  if (user.email) entry[USER_ATTRIBUTES.email] = user.email;
  if (user.phone) entry[USER_ATTRIBUTES.phone] = user.phone;
  return entry;
}

const memberValue = (config: LdapConfig, directory: LdapDirectory, username: string) =>
  membersAreUsernames(config) ? username : directory.userDns.get(lower(username));

async function applyOne(client: Client, config: LdapConfig, directory: LdapDirectory, change: LdapChange, op: Op): Promise<void> {
  switch (change.kind) {
    case 'create_user':
      await op(() => client.add(change.dn, entryOf(change.user, change.dn, config)));
      directory.userDns.set(lower(change.user.username), change.dn);
      return;
    case 'update_user':
      await op(() => client.modify(change.dn, attributeChanges(change.set, config)));
      if (change.set.username !== undefined) directory.userDns.set(lower(change.set.username), change.dn);
      return;
    case 'rename_user':
      return renameEntry(client, config, directory, change, op);
    case 'disable_user':
    case 'enable_user':
      return setDisabled(client, change.dn, change.kind === 'disable_user', op);
    case 'delete_user':
      await op(() => client.del(change.dn));
      directory.userDns.delete(lower(change.username));
      return;
    case 'create_group': {
      const dn = `${config.groupnameAttr}=${escapeDnValue(change.group)},${config.groupSearchBase}`;
      const members = change.members.map((u) => memberValue(config, directory, u)).filter((v): v is string => v !== undefined);
      await op(() =>
        client.add(dn, { objectClass: config.groupObjClass, [config.groupnameAttr]: change.group, [config.groupMemberAttr]: members }),
      );
      directory.groupDns.set(lower(change.group), dn);
      return;
    }
    case 'add_member':
    case 'remove_member': {
      const group = directory.groupDns.get(lower(change.group));
      const value = memberValue(config, directory, change.username);
      if (!group || !value) throw new Error(`Unknown group '${change.group}' or user '${change.username}'.`);
      const modification = change.kind === 'add_member' ? add(config.groupMemberAttr, value) : remove(config.groupMemberAttr, value);
      await op(() => client.modify(group, [modification]));
      return;
    }
  }
}

/** modrdn within the same parent; group member DNs follow (slapd without the refint overlay keeps the old ones). */
async function renameEntry(
  client: Client,
  config: LdapConfig,
  directory: LdapDirectory,
  change: Extract<LdapChange, { kind: 'rename_user' }>,
  op: Op,
): Promise<void> {
  const comma = change.newDn.search(/[^\\],/);
  const newRdn = comma < 0 ? change.newDn : change.newDn.slice(0, comma + 1);
  await op(() => client.modifyDN(change.dn, newRdn));
  // The update that follows in the plan records the entry under its new username.
  directory.userDns.delete(lower(change.username));
  if (membersAreUsernames(config)) return;
  const { searchEntries } = await client.search(config.groupSearchBase, {
    scope: 'sub',
    filter: `(&(objectClass=${config.groupObjClass})(${config.groupMemberAttr}=${escapeFilter(change.dn)}))`,
    attributes: ['dn'],
  });
  for (const group of searchEntries) {
    if (normalizeDn(group.dn) === normalizeDn(change.newDn)) continue;
    await op(() => client.modify(group.dn, [remove(config.groupMemberAttr, change.dn), add(config.groupMemberAttr, change.newDn)]));
  }
}

/** RFC 4515 escaping of a filter value. */
export const escapeFilter = (value: string) => value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

async function setDisabled(client: Client, dn: string, disabled: boolean, op: Op): Promise<void> {
  const { searchEntries } = await client.search(dn, { scope: 'base', attributes: ['userAccountControl'] });
  const value = searchEntries[0]?.userAccountControl;
  const first = Array.isArray(value) ? value[0] : value;
  // A normal account (512) when the entry has no flags yet.
  const current = first === undefined || first === '' ? 512 : Number(first.toString());
  const next = disabled ? current | ACCOUNTDISABLE : current & ~ACCOUNTDISABLE;
  await op(() => client.modify(dn, [replace('userAccountControl', [String(next)])]));
}

/** `{SSHA}` of a password: OpenLDAP verifies it on bind without storing the password. */
export function sshaHash(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

/**
 * Writes a linked user's new password to their entry: OpenLDAP `userPassword` (salted SHA),
 * Active Directory `unicodePwd` (the quoted password in UTF-16LE; AD accepts it only over TLS).
 */
export async function writeLdapPassword(client: Client, config: LdapConfig, dn: string, password: string): Promise<void> {
  const change = config.usesAd
    ? replace('unicodePwd', [Buffer.from(`"${password}"`, 'utf16le')])
    : replace('userPassword', [sshaHash(password)]);
  await client.modify(dn, [change]);
}
