import { z } from 'zod';

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

export const personNameSchema = requiredString(LIMITS.nameMax);
