import type { Account, AccountClaims } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import { claimSource, findUserBySub } from './accounts.repo.js';

/** The scopes Palisade offers (spec §9) and the claims each releases. */
export const OIDC_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username'],
  email: ['email', 'email_verified'],
  phone: ['phone_number'],
  groups: ['groups'],
} as const;

/**
 * oidc-provider's `findAccount`: called at sign-in and on every token, refresh and userinfo use.
 * A disabled or deleted user is no account, so all of these fail at once.
 *
 * `email_verified` is false: Palisade never proves that a user controls the address (admins and
 * directory syncs type it in; docs/openid.md).
 */
export async function findAccount(db: Db, sub: string): Promise<Account | undefined> {
  const user = await findUserBySub(db, sub);
  if (!user?.isActive) return undefined;
  return {
    accountId: sub,
    async claims(): Promise<AccountClaims> {
      const row = await claimSource(db, user.id);
      if (!row) return { sub };
      const name = [row.firstName, row.lastName].filter(Boolean).join(' ');
      return {
        sub,
        name,
        given_name: row.firstName,
        family_name: row.lastName,
        preferred_username: row.username,
        email: row.email,
        email_verified: false,
        ...(row.phone ? { phone_number: row.phone } : {}),
        groups: row.groups,
      };
    },
  };
}
