import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    passwordHash: text('password_hash'),
    isActive: boolean('is_active').notNull().default(true),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    mfaMethod: text('mfa_method'),
    enrolled: boolean('enrolled').notNull().default(false),
    /** The OpenID `sub`: stable, random, never changes with the username (oidc/account.ts). */
    oidcSub: uuid('oidc_sub').notNull().defaultRandom().unique(),
    /** The LDAP entry this account is linked to (signs in with the LDAP password, is synced); null = local. */
    ldapDn: text('ldap_dn'),
    /** The entry's RDN value (the user RDN attribute), kept to follow renames. */
    ldapRdn: text('ldap_rdn'),
    /** The language mail to this user is written in (en, ko, pl; the console's language); null = not known yet. */
    language: text('language'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
    check('users_language_check', sql`${t.language} in ('en', 'ko', 'pl')`),
  ],
);

export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('groups_name_lower_key').on(sql`lower(${t.name})`)],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);

/** Console sessions. `id` is the SHA-256 of the cookie token; the token itself is never stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['active', 'mfa_pending'] }).notNull(),
    /** The sign-in passed a second factor (the MFA step); the OpenID provider's `amr` says `mfa` only then. */
    mfaPassed: boolean('mfa_passed').notNull().default(false),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Failure counters for brute-force protection, keyed `user:<lowercase name>` or `ip:<address>`. */
export const authFailures = pgTable('auth_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** Singleton row (id = 1): instance branding and module flags. */
export const settings = pgTable('settings', {
  id: integer('id').primaryKey(),
  instanceName: text('instance_name').notNull(),
  mainLogoUrl: text('main_logo_url').notNull().default(''),
  navLogoUrl: text('nav_logo_url').notNull().default(''),
  wireguardEnabled: boolean('wireguard_enabled').notNull().default(true),
  webhooksEnabled: boolean('webhooks_enabled').notNull().default(true),
  workerEnabled: boolean('worker_enabled').notNull().default(true),
  openidEnabled: boolean('openid_enabled').notNull().default(true),
  /** The overview's initial view of the locations: grid or list. */
  defaultNetworkView: text('default_network_view', { enum: ['grid', 'list'] })
    .notNull()
    .default('grid'),
  /** Enterprise settings (spec §6). */
  adminDeviceManagement: boolean('admin_device_management').notNull().default(false),
  disableAllTraffic: boolean('disable_all_traffic').notNull().default(false),
  disableManualConfig: boolean('disable_manual_config').notNull().default(false),
  /** Days the activity log keeps an entry; 0 = forever. */
  activityLogRetentionDays: integer('activity_log_retention_days').notNull().default(90),
  /** CIDRs outgoing webhooks and streams may reach although the SSRF guard refuses them otherwise. */
  egressAllowCidrs: text('egress_allow_cidrs').array().notNull().default(sql`'{}'::text[]`),
  /** Outgoing mail (modules/mail); configured when server, port and sender are set. */
  smtpServer: text('smtp_server').notNull().default(''),
  smtpPort: integer('smtp_port'),
  smtpEncryption: text('smtp_encryption', { enum: ['none', 'starttls', 'tls'] })
    .notNull()
    .default('starttls'),
  smtpUser: text('smtp_user').notNull().default(''),
  /** Sealed with the SecretBox; never returned (responses carry `smtp_password_set`). */
  smtpPassword: text('smtp_password'),
  smtpSender: text('smtp_sender').notNull().default(''),
  /** LDAP / Active Directory (modules/ldap, docs/ldap.md). */
  ldapEnabled: boolean('ldap_enabled').notNull().default(false),
  ldapUrl: text('ldap_url').notNull().default(''),
  ldapBindUsername: text('ldap_bind_username').notNull().default(''),
  /** Sealed with the SecretBox; never returned (responses carry `ldap_bind_password_set`). */
  ldapBindPassword: text('ldap_bind_password'),
  ldapMemberAttr: text('ldap_member_attr').notNull().default('memberOf'),
  ldapUsernameAttr: text('ldap_username_attr').notNull().default('uid'),
  ldapUserObjClass: text('ldap_user_obj_class').notNull().default('inetOrgPerson'),
  ldapUserAuxiliaryObjClasses: text('ldap_user_auxiliary_obj_classes').array().notNull().default(sql`'{}'::text[]`),
  ldapUserSearchBase: text('ldap_user_search_base').notNull().default(''),
  ldapGroupnameAttr: text('ldap_groupname_attr').notNull().default('cn'),
  ldapGroupSearchBase: text('ldap_group_search_base').notNull().default(''),
  ldapGroupMemberAttr: text('ldap_group_member_attr').notNull().default('member'),
  ldapGroupObjClass: text('ldap_group_obj_class').notNull().default('groupOfNames'),
  ldapSyncEnabled: boolean('ldap_sync_enabled').notNull().default(false),
  ldapAuthoritativeSource: text('ldap_authoritative_source', { enum: ['ldap', 'palisade'] })
    .notNull()
    .default('ldap'),
  /** Seconds between sync runs. */
  ldapSyncInterval: integer('ldap_sync_interval').notNull().default(300),
  ldapUseStarttls: boolean('ldap_use_starttls').notNull().default(false),
  ldapTlsVerifyCert: boolean('ldap_tls_verify_cert').notNull().default(true),
  /** PEM CA certificate(s) trusted for the LDAP server besides the system store; '' = system trust only. */
  ldapTlsCaCert: text('ldap_tls_ca_cert').notNull().default(''),
  ldapUsesAd: boolean('ldap_uses_ad').notNull().default(false),
  ldapUserRdnAttr: text('ldap_user_rdn_attr').notNull().default(''),
  ldapSyncGroups: text('ldap_sync_groups').array().notNull().default(sql`'{}'::text[]`),
  ldapRemovedUserBehavior: text('ldap_removed_user_behavior', { enum: ['disable', 'delete'] })
    .notNull()
    .default('disable'),
  /** Enrollment (docs/enrollment.md): Markdown welcome message and welcome email, VPN step, token lifetime. */
  enrollmentWelcomeMessage: text('enrollment_welcome_message').notNull().default(''),
  enrollmentWelcomeEmailSubject: text('enrollment_welcome_email_subject').notNull().default(''),
  enrollmentWelcomeEmail: text('enrollment_welcome_email').notNull().default(''),
  enrollmentUseWelcomeMessageAsEmail: boolean('enrollment_use_welcome_message_as_email').notNull().default(true),
  enrollmentVpnStepOptional: boolean('enrollment_vpn_step_optional').notNull().default(true),
  /** Hours an enrollment or desktop-activation token stays valid (1..720). */
  enrollmentTokenLifetimeHours: integer('enrollment_token_lifetime_hours').notNull().default(24),
  /** Gateway notifications (docs/gateways.md): mail admins when a gateway stays disconnected, and when it is back. */
  gatewayDisconnectNotificationsEnabled: boolean('gateway_disconnect_notifications_enabled').notNull().default(false),
  /** Minutes a gateway must stay disconnected before the disconnect mail (1..1440). */
  gatewayInactivityThreshold: integer('gateway_inactivity_threshold').notNull().default(5),
  gatewayReconnectNotificationsEnabled: boolean('gateway_reconnect_notifications_enabled').notNull().default(false),
  /** The enterprise licence key (modules/licence, docs/licensing.md); null = no licence. Stored only once its signature verified. */
  licenceKey: text('licence_key'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Row counts kept by triggers (migration 0005), so a paged list can show its total without
 * counting the table on every request. Read with a `count(*)` fallback when a row is missing.
 */
export const rowCounts = pgTable('row_counts', {
  name: text('name').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});
