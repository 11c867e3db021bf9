import type { UserTokenPurpose } from '@palisade/contracts';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import type { TokenUser, UserTokenRow } from './user-tokens.repo.js';

/** A new token: 32 random bytes, base64url (shown once), and the SHA-256 the database keeps. */
export function newUserToken(): { token: string; hash: string } {
  const token = randomToken(32);
  return { token, hash: sha256(token) };
}

export const hashUserToken = (token: string): string => sha256(token);

const INVALID: Record<UserTokenPurpose, HttpProblem['code']> = {
  enrollment: 'enrollment.token_invalid',
  desktop: 'enrollment.token_invalid',
  password_reset: 'password_reset.token_invalid',
};

const DETAIL: Record<UserTokenPurpose, string> = {
  enrollment: 'This enrollment link is invalid, has expired or was already used. Ask your administrator for a new one.',
  desktop: 'This activation token is invalid, has expired or was already used. Ask your administrator for a new one.',
  password_reset: 'This password reset link is invalid, has expired or was already used. Request a new one.',
};

/** The one answer for a wrong, expired, spent or revoked token (no hint which). */
export const tokenInvalid = (purpose: UserTokenPurpose, status = 400) => new HttpProblem(status, INVALID[purpose], DETAIL[purpose]);

/** Whether `found` is a live token of `purpose`: unspent, unexpired, its user active. */
export function isRedeemable(
  found: { token: UserTokenRow; user: TokenUser } | undefined,
  purpose: UserTokenPurpose,
  now: Date,
): found is { token: UserTokenRow; user: TokenUser } {
  return (
    found !== undefined &&
    found.token.purpose === purpose &&
    found.token.usedAt === null &&
    found.token.expiresAt.getTime() > now.getTime() &&
    found.user.isActive
  );
}
