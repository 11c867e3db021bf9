import type { Account, AccountClaims } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import { findAccountRow } from './accounts.repo.js';
import { requestWrites } from './request-writes.repo.js';

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
  // A token request read the account with its code or refresh token, in the same statement.
  const read = requestWrites.getStore()?.takeAccount(sub);
  const row = read === undefined ? await findAccountRow(db, sub) : read;
  if (!row?.is_active) return undefined;
  return {
    accountId: sub,
    // Read with the account, in the same statement: the provider asks for them in the same request.
    async claims(): Promise<AccountClaims> {
      const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
      return {
        sub,
        name,
        given_name: row.first_name,
        family_name: row.last_name,
        preferred_username: row.username,
        email: row.email,
        email_verified: false,
        ...(row.phone ? { phone_number: row.phone } : {}),
        groups: row.groups,
      };
    },
  };
}
