import { HttpProblem } from '#src/lib/problem.js';
import type { LdapPasswords } from '#src/modules/ldap/sync-password.js';

/** The start of the detail of `ldap.password_refused`; the directory's reason follows. */
export const PASSWORD_REFUSED_DETAIL = 'The directory (LDAP) did not accept the new password';

/**
 * Where a new password of `user` goes (docs/enrollment.md): an account linked to an LDAP entry keeps
 * its password in LDAP only (it signs in by binding as the entry), so the password is written there
 * as the service user, the way a password change of such an account is; a local account gets a hash.
 * Returns the `passwordHash` to store (null for a linked account). When the directory refuses,
 * 400 `ldap.password_refused` with the directory's reason, before anything is changed or spent.
 */
export async function storeNewPassword(
  ldap: LdapPasswords | undefined,
  user: { ldapDn: string | null },
  password: string,
  hash: (password: string) => Promise<string>,
): Promise<string | null> {
  const dn = await ldap?.linkedDn(user);
  if (!ldap || dn === undefined) return hash(password);
  try {
    await ldap.write(dn, password);
  } catch (error) {
    const reason = error instanceof HttpProblem ? (error.detail ?? error.message).replace(/^[^:]*:\s*/, '') : 'unknown error';
    throw new HttpProblem(400, 'ldap.password_refused', `${PASSWORD_REFUSED_DETAIL}: ${reason}`);
  }
  return null;
}
