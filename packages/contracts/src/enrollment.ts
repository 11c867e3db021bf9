import { z } from 'zod';
import { CreateDeviceBodySchema, CreatedDeviceSchema } from './devices.js';
import { emailSchema, passwordSchema } from './validation.js';

/**
 * Onboarding (docs/enrollment.md): enrollment, desktop activation and password reset with
 * one-time tokens. A token is 32 random bytes, base64url (43 characters), shown once; the server
 * stores only its SHA-256.
 */

/** Hours an enrollment or desktop-activation token stays valid (setting). A reset token: 1 hour. */
export const ENROLLMENT_TOKEN_LIFETIME_HOURS_MIN = 1;
export const ENROLLMENT_TOKEN_LIFETIME_HOURS_MAX = 720;
export const PASSWORD_RESET_TOKEN_LIFETIME_HOURS = 1;

export const USER_TOKEN_PURPOSES = ['enrollment', 'desktop', 'password_reset'] as const;
export type UserTokenPurpose = (typeof USER_TOKEN_PURPOSES)[number];

/** The languages a mail can be written in; English when absent. */
export const MailLocaleSchema = z.enum(['en', 'ko', 'pl'], { error: 'invalid' });

const MARKDOWN_MAX = 20_000;
const markdown = z.string({ error: 'invalid_type' }).max(MARKDOWN_MAX, { error: 'max_length' });

/** The enrollment fields of GET /settings. */
export const enrollmentSettingsView = {
  /** Markdown shown on the first step of the enrollment flow (rendered without raw HTML). */
  enrollment_welcome_message: z.string(),
  /** Subject of the welcome email sent when a person finishes enrollment ('' = a default per language). */
  enrollment_welcome_email_subject: z.string(),
  /** Markdown body of the welcome email (ignored while `enrollment_use_welcome_message_as_email`). */
  enrollment_welcome_email: z.string(),
  enrollment_use_welcome_message_as_email: z.boolean(),
  /** Whether a person may finish enrollment without adding a VPN device. */
  enrollment_vpn_step_optional: z.boolean(),
  enrollment_token_lifetime_hours: z.number().int(),
};

/** The enrollment fields of a settings write; each optional (absent keeps the stored value). */
export const enrollmentSettingsFields = {
  enrollment_welcome_message: markdown.optional(),
  enrollment_welcome_email_subject: z
    .string({ error: 'invalid_type' })
    .trim()
    .max(255, { error: 'max_length' })
    .refine((v) => !/[\r\n]/.test(v), { error: 'invalid' })
    .optional(),
  enrollment_welcome_email: markdown.optional(),
  enrollment_use_welcome_message_as_email: z.boolean({ error: 'invalid_type' }).optional(),
  enrollment_vpn_step_optional: z.boolean({ error: 'invalid_type' }).optional(),
  enrollment_token_lifetime_hours: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(ENROLLMENT_TOKEN_LIFETIME_HOURS_MIN, { error: 'min_value' })
    .max(ENROLLMENT_TOKEN_LIFETIME_HOURS_MAX, { error: 'max_value' })
    .optional(),
};

export const DEFAULT_ENROLLMENT_SETTINGS = {
  enrollment_welcome_message: '',
  enrollment_welcome_email_subject: '',
  enrollment_welcome_email: '',
  enrollment_use_welcome_message_as_email: true,
  enrollment_vpn_step_optional: true,
  enrollment_token_lifetime_hours: 24,
};

// ---- Admin: start enrollment, desktop activation, password reset ------------------------------

/**
 * `POST /user/{username}/start_enrollment`. `send_email`: mail the link (needs SMTP) to `email`
 * (the user's address when absent) in `locale`; otherwise the answer carries the token and link
 * once. `re_enroll: true` is required when the user already has a password (else 409
 * `enrollment.user_has_password`).
 */
export const StartEnrollmentBodySchema = z.strictObject({
  send_email: z.boolean({ error: 'invalid_type' }),
  email: emailSchema.optional(),
  locale: MailLocaleSchema.optional(),
  re_enroll: z.literal(true, { error: 'invalid' }).optional(),
});
export type StartEnrollmentBody = z.infer<typeof StartEnrollmentBodySchema>;

export const EnrollmentStartedSchema = z
  .object({
    /** Only when not emailed: shown once. */
    token: z.string().optional(),
    /** Only when not emailed: the enrollment page with the token, `{public_url}/enrollment?token=…`. */
    url: z.string().optional(),
    /** The address the link was mailed to (when emailed). */
    email: z.string().optional(),
    expires_at: z.string(),
  })
  .meta({ id: 'EnrollmentStarted' });
export type EnrollmentStarted = z.infer<typeof EnrollmentStartedSchema>;

/** `POST /user/{username}/start_desktop`: a one-time activation token for a client. */
export const StartDesktopBodySchema = z.strictObject({});
export const DesktopActivationSchema = z
  .object({
    token: z.string(),
    /** The instance's public URL a client redeems the token at. */
    url: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: 'DesktopActivation' });
export type DesktopActivation = z.infer<typeof DesktopActivationSchema>;

/** `POST /user/{username}/reset_password`: mails a reset link (1 hour) in `locale`. */
export const AdminPasswordResetBodySchema = z.strictObject({ locale: MailLocaleSchema.optional() });
export const PasswordResetSentSchema = z.object({ email: z.string(), expires_at: z.string() }).meta({ id: 'PasswordResetSent' });
export type PasswordResetSent = z.infer<typeof PasswordResetSentSchema>;

// ---- Public: enrollment flow -------------------------------------------------------------------

const tokenSchema = z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(128, { error: 'max_length' });

/** `POST /enrollment/start`: redeems the token into the flow's cookie (not a console session). */
export const EnrollmentTokenBodySchema = z.strictObject({ token: tokenSchema });

export const EnrollmentLocationSchema = z.object({ id: z.number().int(), name: z.string() });

/** The state of an enrollment flow (`POST /enrollment/start`, `GET /enrollment/session`). */
export const EnrollmentSessionSchema = z
  .object({
    user: z.object({ username: z.string(), first_name: z.string(), last_name: z.string(), email: z.string() }),
    /** The admin's Markdown; render it without raw HTML and without `javascript:` links. */
    welcome_message: z.string(),
    vpn_step_optional: z.boolean(),
    /** The user has a password (set in this flow, or kept from before a re-enrollment). */
    password_set: z.boolean(),
    /** Devices added in this flow. */
    devices_added: z.number().int(),
    /** The locations the user's devices get a config for. */
    locations: z.array(EnrollmentLocationSchema),
    expires_at: z.string(),
  })
  .meta({ id: 'EnrollmentSession' });
export type EnrollmentSession = z.infer<typeof EnrollmentSessionSchema>;

/** `POST /enrollment/password` (204). Spec §5 strength rules. */
export const EnrollmentPasswordBodySchema = z.strictObject({ password: passwordSchema });

/** `POST /enrollment/device`: the add-device body and answer (`CreatedDevice`). */
export const EnrollmentDeviceBodySchema = CreateDeviceBodySchema;
export const EnrollmentDeviceSchema = CreatedDeviceSchema;

/** `POST /enrollment/finish`: the welcome email goes out in `locale` (English when absent). */
export const EnrollmentFinishBodySchema = z.strictObject({ locale: MailLocaleSchema.optional() });
export const EnrollmentFinishedSchema = z
  .object({ username: z.string(), welcome_email_sent: z.boolean() })
  .meta({ id: 'EnrollmentFinished' });
export type EnrollmentFinished = z.infer<typeof EnrollmentFinishedSchema>;

// ---- Public: password reset --------------------------------------------------------------------

/** `POST /password_reset/request`: always 202, whether or not the address belongs to an account. */
export const PasswordResetRequestBodySchema = z.strictObject({ email: emailSchema, locale: MailLocaleSchema.optional() });
/** `POST /password_reset/start`: checks the token without spending it. */
export const PasswordResetStartBodySchema = z.strictObject({ token: tokenSchema });
export const PasswordResetInfoSchema = z
  .object({ username: z.string(), first_name: z.string(), expires_at: z.string() })
  .meta({ id: 'PasswordResetInfo' });
export type PasswordResetInfo = z.infer<typeof PasswordResetInfoSchema>;
/** `POST /password_reset/finish` (204): sets the password, spends the token, ends the user's sessions. */
export const PasswordResetFinishBodySchema = z.strictObject({ token: tokenSchema, password: passwordSchema });

/**
 * Problem codes: `enrollment.user_has_password` (409, start without `re_enroll`),
 * `enrollment.token_invalid` (400 for a wrong, expired, used or revoked token; 401 when the flow's
 * cookie is missing or no longer valid), `enrollment.password_required` and
 * `enrollment.device_required` (409, finish too early), `password_reset.token_invalid` (400),
 * `request.rate_limited` (429), `mail.not_configured` (400).
 */
export const ENROLLMENT_ERROR_CODES = [
  'enrollment.user_has_password',
  'enrollment.token_invalid',
  'enrollment.password_required',
  'enrollment.device_required',
  'password_reset.token_invalid',
] as const;
