import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { bindLdap, bindServiceUser, connectionRejected, LdapConnectionError, ldapFailureReason } from './ldap-client.js';
import { loadLdapConfig } from './ldap-config.js';
import { writeLdapPassword } from './sync-apply-ldap.js';

/**
 * Passwords of accounts linked to an LDAP entry live in LDAP (they sign in by binding as the
 * entry): changing one in Palisade writes it to the entry, whatever the sync's authority.
 */
export interface LdapPasswords {
  /** The entry keeping the account's password; undefined for a local account or while LDAP is off. */
  linkedDn(user: { ldapDn: string | null }): Promise<string | undefined>;
  /** Whether `password` is the entry's current password (a bind as the entry). */
  verify(dn: string, password: string): Promise<boolean>;
  /** Writes the new password as the service user (OpenLDAP userPassword, AD unicodePwd). */
  write(dn: string, password: string): Promise<void>;
}

export function ldapPasswords(db: Db, secrets: SecretBox | undefined): LdapPasswords {
  const config = () => loadLdapConfig(db, secrets);
  return {
    async linkedDn(user) {
      if (user.ldapDn === null) return undefined;
      return (await config()).enabled ? user.ldapDn : undefined;
    },
    async verify(dn, password) {
      try {
        const client = await bindLdap(await config(), dn, password);
        await client.unbind().catch(() => undefined);
        return true;
      } catch (error) {
        if (error instanceof LdapConnectionError && error.invalidCredentials) return false;
        throw connectionRejected(ldapFailureReason(error));
      }
    },
    async write(dn, password) {
      const settings = await config();
      let client: Awaited<ReturnType<typeof bindServiceUser>>;
      try {
        client = await bindServiceUser(settings);
      } catch (error) {
        throw connectionRejected(ldapFailureReason(error));
      }
      try {
        await writeLdapPassword(client, settings, dn, password);
      } catch (error) {
        throw connectionRejected(ldapFailureReason(error));
      } finally {
        await client.unbind().catch(() => undefined);
      }
    },
  };
}
