import { parseCidr } from '@palisade/wireguard';
import { z } from 'zod';
import { DEFAULT_ENROLLMENT_SETTINGS, enrollmentSettingsFields, enrollmentSettingsView } from './enrollment.js';
import {
  DEFAULT_GATEWAY_NOTIFICATION_SETTINGS,
  gatewayNotificationSettingsFields,
  gatewayNotificationSettingsView,
} from './gateway-notifications.js';
import { DEFAULT_LDAP_SETTINGS, ldapSettingsFields, ldapSettingsView } from './ldap.js';
import { LIMITS, requiredString } from './validation.js';

/** Encryption towards the SMTP server: none, STARTTLS (upgrade on the plain port), implicit TLS. */
export const SMTP_ENCRYPTIONS = ['none', 'starttls', 'tls'] as const;
export type SmtpEncryption = (typeof SMTP_ENCRYPTIONS)[number];

/** A host name or an IP address (IPv6 with or without brackets); '' means no server. */
const smtpServer = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(253, { error: 'max_length' })
  .refine((v) => v === '' || /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(v) || /^\[?[0-9A-Fa-f:.]+\]?$/.test(v), {
    error: 'invalid',
  });

/** '' or an email address. */
const smtpSender = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(LIMITS.emailMax, { error: 'max_length' })
  .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'email' });

/** The SMTP fields of a settings write; each optional (absent keeps the stored value). */
const smtpFields = {
  smtp_server: smtpServer.optional(),
  smtp_port: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(1, { error: 'min_value' })
    .max(65_535, { error: 'max_value' })
    .optional(),
  smtp_encryption: z.enum(SMTP_ENCRYPTIONS, { error: 'invalid' }).optional(),
  smtp_user: z.string({ error: 'invalid_type' }).trim().max(255, { error: 'max_length' }).optional(),
  /** Write-only: absent keeps the stored password, '' removes it. */
  smtp_password: z.string({ error: 'invalid_type' }).max(255, { error: 'max_length' }).optional(),
  smtp_sender: smtpSender.optional(),
};

/** The overview's views of the locations (spec §2: grid or list). */
export const NETWORK_VIEWS = ['grid', 'list'] as const;
export type NetworkView = (typeof NETWORK_VIEWS)[number];

const logoUrl = z
  .string({ error: 'invalid_type' })
  .trim()
  .max(LIMITS.urlMax, { error: 'max_length' })
  // An address the browser loads as an image: http(s) or a path on this server (not `//host`).
  .refine((v) => v === '' || (v.startsWith('/') && !v.startsWith('//')) || /^https?:\/\/[^\s/][^\s]*$/i.test(v), { error: 'url.http' });

/** Global settings: instance branding and module flags (spec §3). */
export const SettingsSchema = z
  .object({
    instance_name: z.string(),
    main_logo_url: z.string(),
    nav_logo_url: z.string(),
    wireguard_enabled: z.boolean(),
    webhooks_enabled: z.boolean(),
    worker_enabled: z.boolean(),
    openid_enabled: z.boolean(),
    /** The overview's initial view of the locations (docs/branding.md). */
    default_network_view: z.enum(NETWORK_VIEWS),
    /** Days the activity log keeps an entry; 0 keeps entries forever (ADR-005). */
    activity_log_retention_days: z.number().int(),
    /**
     * CIDRs that webhooks and activity-log streams may reach although they are private, loopback
     * or link-local (the SSRF guard refuses those otherwise). Empty by default.
     */
    egress_allow_cidrs: z.array(z.string()),
    /** Outgoing mail (docs/mail.md): configured when server, port and sender are set. */
    smtp_server: z.string(),
    smtp_port: z.number().int().nullable(),
    smtp_encryption: z.enum(SMTP_ENCRYPTIONS),
    smtp_user: z.string(),
    /** Whether a password is stored; the password itself is never returned. */
    smtp_password_set: z.boolean(),
    smtp_sender: z.string(),
    /** LDAP / Active Directory (docs/ldap.md). */
    ...ldapSettingsView,
    /** Enrollment (docs/enrollment.md). */
    ...enrollmentSettingsView,
    /** Gateway notifications (docs/gateways.md#notifications). */
    ...gatewayNotificationSettingsView,
  })
  .meta({ id: 'Settings' });
export type Settings = z.infer<typeof SettingsSchema>;

export const UpdateSettingsBodySchema = z.strictObject({
  instance_name: requiredString(LIMITS.instanceNameMax),
  main_logo_url: logoUrl,
  nav_logo_url: logoUrl,
  wireguard_enabled: z.boolean({ error: 'invalid_type' }),
  webhooks_enabled: z.boolean({ error: 'invalid_type' }),
  worker_enabled: z.boolean({ error: 'invalid_type' }),
  openid_enabled: z.boolean({ error: 'invalid_type' }),
  // Optional in PUT as well: absent keeps the stored value.
  default_network_view: z.enum(NETWORK_VIEWS, { error: 'invalid' }).optional(),
  activity_log_retention_days: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(0, { error: 'min_value' })
    .max(36_500, { error: 'max_value' })
    .optional(),
  egress_allow_cidrs: z
    .array(
      z
        .string({ error: 'invalid_type' })
        .trim()
        .max(64, { error: 'max_length' })
        .refine((v) => parseCidr(v, true) !== undefined, { error: 'cidr' }),
      { error: 'invalid_type' },
    )
    .max(100, { error: 'max_length' })
    .optional(),
  ...smtpFields,
  ...ldapSettingsFields,
  ...enrollmentSettingsFields,
  ...gatewayNotificationSettingsFields,
});
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBodySchema>;
export const PatchSettingsBodySchema = UpdateSettingsBodySchema.partial();
export type PatchSettingsBody = z.infer<typeof PatchSettingsBodySchema>;

/** Public: everything the login page needs before anyone is signed in. */
export const SettingsEssentialsSchema = SettingsSchema.pick({
  instance_name: true,
  main_logo_url: true,
  nav_logo_url: true,
  wireguard_enabled: true,
  webhooks_enabled: true,
  worker_enabled: true,
  openid_enabled: true,
  default_network_view: true,
})
  .extend({
    /**
     * The login page's external sign-in button (docs/external-openid.md): the provider's display
     * name ('' = the generic text), or null when no external provider is configured.
     */
    external_login_button: z.string().nullable().optional(),
  })
  .meta({ id: 'SettingsEssentials' });
export type SettingsEssentials = z.infer<typeof SettingsEssentialsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  instance_name: 'Palisade',
  main_logo_url: '',
  nav_logo_url: '',
  wireguard_enabled: true,
  webhooks_enabled: true,
  worker_enabled: true,
  openid_enabled: true,
  default_network_view: 'grid',
  activity_log_retention_days: 90,
  egress_allow_cidrs: [],
  smtp_server: '',
  smtp_port: null,
  smtp_encryption: 'starttls',
  smtp_user: '',
  smtp_password_set: false,
  smtp_sender: '',
  ...DEFAULT_LDAP_SETTINGS,
  ...DEFAULT_ENROLLMENT_SETTINGS,
  ...DEFAULT_GATEWAY_NOTIFICATION_SETTINGS,
};

/** POST /mail/test: sends a test mail now to `to`. */
export const MailTestBodySchema = z.strictObject({
  to: requiredString(LIMITS.emailMax).pipe(z.email({ error: 'email' })),
  /** The language of the test mail (the console sends its own); English when absent. */
  locale: z.enum(['en', 'ko', 'pl'], { error: 'invalid' }).optional(),
});
export type MailTestBody = z.infer<typeof MailTestBodySchema>;
