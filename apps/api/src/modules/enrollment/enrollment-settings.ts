import type { PatchSettingsBody, Settings } from '@palisade/contracts';
import type { SettingsRow } from '#src/modules/settings/settings.repo.js';

type EnrollmentSettings = Pick<
  Settings,
  | 'enrollment_welcome_message'
  | 'enrollment_welcome_email_subject'
  | 'enrollment_welcome_email'
  | 'enrollment_use_welcome_message_as_email'
  | 'enrollment_vpn_step_optional'
  | 'enrollment_token_lifetime_hours'
>;

/** The enrollment fields of GET /settings (docs/enrollment.md). */
export const toEnrollmentSettings = (row: SettingsRow): EnrollmentSettings => ({
  enrollment_welcome_message: row.enrollmentWelcomeMessage,
  enrollment_welcome_email_subject: row.enrollmentWelcomeEmailSubject,
  enrollment_welcome_email: row.enrollmentWelcomeEmail,
  enrollment_use_welcome_message_as_email: row.enrollmentUseWelcomeMessageAsEmail,
  enrollment_vpn_step_optional: row.enrollmentVpnStepOptional,
  enrollment_token_lifetime_hours: row.enrollmentTokenLifetimeHours,
});

/** The columns a settings write changes (absent fields keep the stored value). */
export const enrollmentValues = (body: PatchSettingsBody): Partial<SettingsRow> => ({
  ...(body.enrollment_welcome_message !== undefined && { enrollmentWelcomeMessage: body.enrollment_welcome_message }),
  ...(body.enrollment_welcome_email_subject !== undefined && { enrollmentWelcomeEmailSubject: body.enrollment_welcome_email_subject }),
  ...(body.enrollment_welcome_email !== undefined && { enrollmentWelcomeEmail: body.enrollment_welcome_email }),
  ...(body.enrollment_use_welcome_message_as_email !== undefined && {
    enrollmentUseWelcomeMessageAsEmail: body.enrollment_use_welcome_message_as_email,
  }),
  ...(body.enrollment_vpn_step_optional !== undefined && { enrollmentVpnStepOptional: body.enrollment_vpn_step_optional }),
  ...(body.enrollment_token_lifetime_hours !== undefined && { enrollmentTokenLifetimeHours: body.enrollment_token_lifetime_hours }),
});
