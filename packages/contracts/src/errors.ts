import { z } from 'zod';

/**
 * Stable problem codes. The console branches on these only and maps each to an i18n message
 * (`errors.<code>`), so renaming one is a breaking change.
 */
export const ERROR_CODES = [
  'validation.failed',
  'request.malformed',
  'request.too_large',
  'request.unsupported_media_type',
  'request.not_found',
  'request.method_not_allowed',
  'request.rate_limited',
  'internal',
  'auth.unauthenticated',
  'auth.forbidden',
  'auth.csrf',
  'auth.invalid_credentials',
  'auth.too_many_attempts',
  'auth.mfa_required',
  'auth.user_disabled',
  'auth.invalid_password',
  'auth.invalid_code',
  'user.not_found',
  'user.username_taken',
  'user.email_taken',
  'user.last_admin',
  'user.self_delete',
  'group.not_found',
  'group.name_taken',
  'group.member_not_found',
  'group.protected',
  'license.required',
  'network.not_found',
  'network.name_taken',
  'network.ip_in_use',
  'network.ip_invalid',
  'network.ip_outside',
  'network.full',
  'network.import_invalid',
  'network.import_pending',
  'network.delete_failed',
  'device.not_found',
  'device.name_taken',
  'device.key_taken',
  'device.invalid_key',
  'device.management_locked',
  'device.config_disabled',
  'device.mfa_location',
  'token.generation_failed',
  'gateway.not_found',
  'token.invalid',
  'module.disabled',
  'webhook.not_found',
  'webhook.delivery_not_found',
  'activity_log_stream.not_found',
  'egress.blocked',
  'mail.not_configured',
  'mail.send_failed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Field-level validation codes (spec §5). `message` carries the English text. */
export const FIELD_CODES = [
  'required',
  'invalid',
  'invalid_type',
  'unknown_field',
  'max_length',
  'min_length',
  'no_special_chars',
  'password.digit',
  'password.special',
  'password.uppercase',
  'password.lowercase',
  'username.starts_with_number',
  'username.forbidden_characters',
  'email',
  'phone',
  'name_taken',
  'username_taken',
  'email_taken',
  'min_value',
  'max_value',
  'number',
  'network.address_with_mask',
  'network.endpoint',
  'network.port',
  'network.max_port',
  'network.allowed_ip',
  'network.dns',
  'network.ip_in_use',
  'network.ip_invalid',
  'network.ip_outside',
  'network.import_pending',
  'device.invalid_key',
  'device.name_taken',
  'reserved',
  'url.http',
  'url.invalid',
  'url.credentials',
  'url.blocked',
  'url.unresolvable',
  'webhook.trigger_required',
  'certificate.pem',
  'cidr',
  'user.not_found',
  'group.not_found',
] as const;
export type FieldCode = (typeof FIELD_CODES)[number];

export const FieldErrorSchema = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    code: z.string(),
    request_id: z.string().optional(),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof ProblemSchema>;

export const TOO_MANY_ATTEMPTS_DETAIL = 'Too many bad login attempts. Please try again in a few minutes.';
