import { z } from 'zod';
import { ROUTE_ACCESS } from './access.js';

/**
 * Field rules of spec §5, shared by the API (request validation) and the console (forms).
 * Each failure's message is a field code from errors.ts; the API turns the issue into
 * `{path, code, message, params}` and the console maps `code` to its i18n text.
 */
export const LIMITS = {
  usernameMax: 64,
  nameMax: 128,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 128,
  groupNameMax: 64,
  instanceNameMax: 64,
  urlMax: 2048,
  searchMax: 128,
} as const;

export const requiredString = (max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
    .trim()
    // An empty field is only "required": the pattern rules below would add noise.
    .min(1, { error: 'required', abort: true })
    .max(max, { error: 'max_length' });

export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;

export const usernameSchema = requiredString(LIMITS.usernameMax)
  .refine((v) => !/^[0-9]/.test(v), { error: 'username.starts_with_number' })
  .refine((v) => USERNAME_PATTERN.test(v), { error: 'username.forbidden_characters' });

/**
 * Path segments a name-addressed route cannot reach because a static route in the same place wins
 * (`POST /device/network` shadows `POST /device/{username}` for a user named `network`). Derived
 * from route patterns, so a static route added to the permission table reserves its segment by
 * itself. `takes(prefix, param)` picks the name parameters of interest; any two parameters at the
 * same position match each other, and static segments match case-insensitively.
 */
export function shadowedSegments(patterns: readonly string[], takes: (prefix: string, param: string) => boolean): string[] {
  const paths = patterns.map((p) => p.replace(/^[A-Z]+ /, '').split('/'));
  const same = (a: string, b: string) => (a.startsWith(':') && b.startsWith(':')) || a.toLowerCase() === b.toLowerCase();
  const out = new Set<string>();
  for (const path of paths) {
    path.forEach((segment, i) => {
      if (!segment.startsWith(':') || !takes(path.slice(0, i).join('/'), segment.slice(1))) return;
      for (const other of paths) {
        const candidate = other[i];
        if (candidate === undefined || candidate.startsWith(':')) continue;
        if (path.slice(0, i).every((s, j) => same(s, other[j] ?? ''))) out.add(candidate.toLowerCase());
      }
    });
  }
  return [...out].sort();
}

/** Which route parameters hold a username or a group name. */
export const takesUsername = (_prefix: string, param: string) => param === 'username';
export const takesGroupName = (prefix: string, param: string) => prefix === '/api/v1/group' && (param === 'name' || param === 'group');

const routePatterns = Object.keys(ROUTE_ACCESS);
/** Usernames that would be shadowed by a static route (`available`, `change_password`, `network`, `user`…). */
export const RESERVED_USERNAMES: readonly string[] = shadowedSegments(routePatterns, takesUsername);
/** Group names that would be shadowed by a static route under `/group/`. */
export const RESERVED_GROUP_NAMES: readonly string[] = shadowedSegments(routePatterns, takesGroupName);
export const isReservedUsername = (name: string) => RESERVED_USERNAMES.includes(name.trim().toLowerCase());
export const isReservedGroupName = (name: string) => RESERVED_GROUP_NAMES.includes(name.trim().toLowerCase());

/**
 * A username for a new account (or a rename): the format rules plus the reserved words. Existing
 * accounts keep whatever name they have, so the update schema uses `usernameSchema` and the API
 * refuses only a change to a reserved name.
 */
export const newUsernameSchema = usernameSchema.refine((v) => !isReservedUsername(v), { error: 'reserved' });

export const emailSchema = requiredString(LIMITS.emailMax).pipe(z.email({ error: 'email' }));

/** Optional phone number: digits with an optional leading +, spaces, dashes, dots and parentheses. */
export const phoneSchema = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(32, { error: 'max_length' })
  .refine((v) => v === '' || (/^\+?[0-9 ().-]+$/.test(v) && (v.match(/[0-9]/g)?.length ?? 0) >= 5), {
    error: 'phone',
  });

export const passwordSchema = z
  .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
  .min(LIMITS.passwordMin, { error: 'min_length' })
  .max(LIMITS.passwordMax, { error: 'max_length' })
  .refine((v) => /[0-9]/.test(v), { error: 'password.digit' })
  .refine((v) => /[^A-Za-z0-9]/.test(v), { error: 'password.special' })
  .refine((v) => /[A-Z]/.test(v), { error: 'password.uppercase' })
  .refine((v) => /[a-z]/.test(v), { error: 'password.lowercase' });

export const groupNameSchema = requiredString(LIMITS.groupNameMax).refine((v) => /^[A-Za-z0-9 ._-]+$/.test(v), {
  error: 'no_special_chars',
});

/** A group name for a new group (or a rename): see `newUsernameSchema`. */
export const newGroupNameSchema = groupNameSchema.refine((v) => !isReservedGroupName(v), { error: 'reserved' });

export const personNameSchema = requiredString(LIMITS.nameMax);
