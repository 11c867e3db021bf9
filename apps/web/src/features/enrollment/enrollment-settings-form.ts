import type { Settings } from '@palisade/contracts';

/** The enrollment settings as the form edits them (the lifetime as typed). */
export type EnrollmentSettingsValues = {
  enrollment_welcome_message: string;
  enrollment_welcome_email_subject: string;
  enrollment_welcome_email: string;
  enrollment_use_welcome_message_as_email: boolean;
  enrollment_vpn_step_optional: boolean;
  enrollment_token_lifetime_hours: string;
};

export const enrollmentFormValues = (settings: Settings): EnrollmentSettingsValues => ({
  enrollment_welcome_message: settings.enrollment_welcome_message,
  enrollment_welcome_email_subject: settings.enrollment_welcome_email_subject,
  enrollment_welcome_email: settings.enrollment_welcome_email,
  enrollment_use_welcome_message_as_email: settings.enrollment_use_welcome_message_as_email,
  enrollment_vpn_step_optional: settings.enrollment_vpn_step_optional,
  enrollment_token_lifetime_hours: String(settings.enrollment_token_lifetime_hours),
});

/** The PATCH body: only the enrollment fields; a lifetime that is not a whole number fails the schema's `number`. */
export const enrollmentSettingsBody = (values: EnrollmentSettingsValues) => {
  const hours = values.enrollment_token_lifetime_hours.trim();
  return { ...values, enrollment_token_lifetime_hours: /^\d+$/.test(hours) ? Number(hours) : Number.NaN };
};

export const isEnrollmentFormDirty = (values: EnrollmentSettingsValues, saved: EnrollmentSettingsValues): boolean =>
  (Object.keys(saved) as (keyof EnrollmentSettingsValues)[]).some((name) => values[name] !== saved[name]);
