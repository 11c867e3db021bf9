import { LIMITS, USERNAME_PATTERN, type UsernameHandling } from '@palisade/contracts';

/**
 * The username of an account created at external sign-in (docs/external-openid.md):
 * - `remove`: the provider's `preferred_username` (else the email address) without the
 *   characters a Palisade username cannot hold (anything but letters, digits, `.`, `_`, `-`);
 * - `replace`: the same, with each such character replaced by `_`;
 * - `prune_email`: the part of the email address before `@` (else of `preferred_username`),
 *   then without the characters a username cannot hold.
 * Leading digits (a username cannot start with one) are dropped. Undefined when nothing is left.
 */
export function usernameFromClaims(claims: { preferred_username?: unknown; email?: unknown }, mode: UsernameHandling): string | undefined {
  const preferred = typeof claims.preferred_username === 'string' ? claims.preferred_username.trim() : '';
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  let base: string;
  if (mode === 'prune_email') base = (email || preferred).split('@')[0] ?? '';
  else base = preferred || email;
  const invalid = /[^A-Za-z0-9._-]/g;
  const cleaned = mode === 'replace' ? base.replace(invalid, '_') : base.replace(invalid, '');
  const name = cleaned.replace(/^[0-9]+/, '').slice(0, LIMITS.usernameMax);
  return name !== '' && USERNAME_PATTERN.test(name) ? name : undefined;
}
