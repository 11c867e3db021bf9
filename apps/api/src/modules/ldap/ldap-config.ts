import type { LdapAuthoritativeSource, LdapRemovedUserBehavior } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { SettingsRepo, type SettingsRow } from '#src/modules/settings/settings.repo.js';

/** The LDAP settings as the connection, sign-in and sync use them (the bind password unsealed). */
export interface LdapConfig {
  /** LDAP sign-in (and the connection test) is on. */
  enabled: boolean;
  /** `ldap://host[:port]` or `ldaps://host[:port]`. */
  url: string;
  /** The DN (or AD `user@domain`) the service binds as; '' = anonymous. */
  bindUsername: string;
  /** The unsealed bind password; '' when none is stored. */
  bindPassword: string;
  memberAttr: string;
  usernameAttr: string;
  userObjClass: string;
  userAuxiliaryObjClasses: string[];
  userSearchBase: string;
  groupnameAttr: string;
  groupSearchBase: string;
  groupMemberAttr: string;
  groupObjClass: string;
  syncEnabled: boolean;
  authoritativeSource: LdapAuthoritativeSource;
  /** Seconds between sync runs. */
  syncIntervalSeconds: number;
  useStartTls: boolean;
  tlsVerifyCert: boolean;
  /** PEM CA certificate(s) trusted besides the system store; '' = system trust only. */
  tlsCaCert: string;
  usesAd: boolean;
  /** The RDN attribute of user entries (never '': falls back to the username attribute). */
  userRdnAttr: string;
  /** Group names whose members are synced and may sign in; empty = everyone under the user search base. */
  syncGroups: string[];
  removedUserBehavior: LdapRemovedUserBehavior;
}

export function toLdapConfig(row: SettingsRow, secrets: SecretBox | undefined): LdapConfig {
  const sealed = row.ldapBindPassword;
  if (sealed !== null && !secrets) throw new Error('LDAP bind password stored but no secret box to unseal it');
  return {
    enabled: row.ldapEnabled,
    url: row.ldapUrl,
    bindUsername: row.ldapBindUsername,
    bindPassword: sealed !== null && secrets ? secrets.decrypt(sealed) : '',
    memberAttr: row.ldapMemberAttr,
    usernameAttr: row.ldapUsernameAttr,
    userObjClass: row.ldapUserObjClass,
    userAuxiliaryObjClasses: row.ldapUserAuxiliaryObjClasses,
    userSearchBase: row.ldapUserSearchBase,
    groupnameAttr: row.ldapGroupnameAttr,
    groupSearchBase: row.ldapGroupSearchBase,
    groupMemberAttr: row.ldapGroupMemberAttr,
    groupObjClass: row.ldapGroupObjClass,
    syncEnabled: row.ldapSyncEnabled,
    authoritativeSource: row.ldapAuthoritativeSource,
    syncIntervalSeconds: row.ldapSyncInterval,
    useStartTls: row.ldapUseStarttls,
    tlsVerifyCert: row.ldapTlsVerifyCert,
    tlsCaCert: row.ldapTlsCaCert,
    usesAd: row.ldapUsesAd,
    userRdnAttr: row.ldapUserRdnAttr || row.ldapUsernameAttr,
    syncGroups: row.ldapSyncGroups,
    removedUserBehavior: row.ldapRemovedUserBehavior,
  };
}

/** The stored LDAP settings, the bind password unsealed with `secrets`. */
export async function loadLdapConfig(db: Db, secrets: SecretBox | undefined): Promise<LdapConfig> {
  return toLdapConfig(await new SettingsRepo(db).get(), secrets);
}
