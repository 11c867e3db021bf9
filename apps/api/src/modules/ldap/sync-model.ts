/**
 * The data an LDAP sync compares and the changes it makes (docs/ldap.md → Sync). Both sides are
 * read into these shapes first; `planSync` (sync-plan.ts) is a pure function of them.
 *
 * Names compare case-insensitively (usernames, group names, DNs); attribute values exactly.
 */

export type SyncAuthority = 'ldap' | 'palisade';
export type RemovedUserBehavior = 'disable' | 'delete';

/** The attributes both sides keep for a user. */
export interface SyncAttributes {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
}

/** A user entry under the user search base. */
export interface LdapUser extends SyncAttributes {
  dn: string;
  /** AD's ACCOUNTDISABLE bit; undefined where the directory has no disabled state (OpenLDAP). */
  disabled?: boolean | undefined;
}

/** A group entry under the group search base; `members` are usernames. */
export interface LdapGroup {
  name: string;
  members: string[];
}

export interface LdapSide {
  users: LdapUser[];
  groups: LdapGroup[];
}

export interface PalisadeUser extends SyncAttributes {
  id: number;
  /** Non-null: the account is linked to this LDAP entry. */
  ldapDn: string | null;
  isActive: boolean;
  groups: string[];
}

export interface PalisadeGroup {
  name: string;
  isAdmin: boolean;
}

export interface PalisadeSide {
  users: PalisadeUser[];
  groups: PalisadeGroup[];
}

export interface SyncConfig {
  authority: SyncAuthority;
  removedUserBehavior: RemovedUserBehavior;
  /** Only these groups' members are synced, and only these groups' memberships; empty = all. */
  syncGroups: string[];
  /** The attribute naming an entry (its RDN), e.g. `uid`, or `cn` in AD. */
  userRdnAttr: string;
  usernameAttr: string;
  userSearchBase: string;
  /** The directory keeps a disabled state (AD's userAccountControl). */
  ldapHasDisabledState: boolean;
}

type UserFields = Partial<SyncAttributes>;

/** One write to Palisade. `username` is the account's name before the change. */
export type PalisadeChange =
  | { side: 'palisade'; kind: 'create_user'; user: SyncAttributes; dn: string; isActive: boolean }
  | { side: 'palisade'; kind: 'update_user'; userId: number; username: string; set: UserFields }
  | { side: 'palisade'; kind: 'link_user'; userId: number; username: string; dn: string }
  | { side: 'palisade'; kind: 'disable_user' | 'enable_user' | 'delete_user'; userId: number; username: string }
  | { side: 'palisade'; kind: 'create_group'; group: string }
  | { side: 'palisade'; kind: 'add_member' | 'remove_member'; group: string; username: string };

/** One write to LDAP. `dn` is the entry's DN before the change. */
export type LdapChange =
  | { side: 'ldap'; kind: 'create_user'; dn: string; user: SyncAttributes }
  | { side: 'ldap'; kind: 'update_user'; dn: string; username: string; set: UserFields }
  | { side: 'ldap'; kind: 'rename_user'; dn: string; username: string; newDn: string }
  | { side: 'ldap'; kind: 'disable_user' | 'enable_user' | 'delete_user'; dn: string; username: string }
  | { side: 'ldap'; kind: 'create_group'; group: string; members: string[] }
  | { side: 'ldap'; kind: 'add_member' | 'remove_member'; group: string; username: string };

export type SyncChange = PalisadeChange | LdapChange;

/** A change the rule called for but the sync does not make, and why. */
export interface SkippedChange {
  username: string;
  change: SyncChange['kind'];
  reason: 'last_admin' | 'no_disabled_state';
}

export interface SyncPlan {
  changes: SyncChange[];
  skipped: SkippedChange[];
}

export const lower = (value: string) => value.toLowerCase();
