import { z } from 'zod';
import { PageQuerySchema, paged } from './common.js';

/**
 * The catalogue of domain events (ADR-005). Every state change a service commits records one of
 * these in the same transaction; the activity log shows them, webhooks and activity-log streams
 * deliver them. `webhook` marks the types an administrator can subscribe a webhook to (spec §3
 * Webhook triggers); `later` marks types whose emitter arrives with a later capability.
 */
export const EVENT_MODULES = [
  'auth',
  'users',
  'groups',
  'locations',
  'devices',
  'gateways',
  'settings',
  'webhooks',
  'activity_log',
  'mfa',
  'openid',
  'acl',
  'keys',
  'directory',
  'enrollment',
  'provisioning',
  'ldap',
] as const;
export type EventModule = (typeof EVENT_MODULES)[number];

interface EventTypeInfo {
  module: EventModule;
  webhook?: true;
  later?: true;
}

export const EVENT_CATALOGUE = {
  'auth.login_succeeded': { module: 'auth' },
  'auth.login_failed': { module: 'auth' },
  'auth.locked_out': { module: 'auth' },
  'auth.logout': { module: 'auth' },
  'auth.sessions_ended': { module: 'auth' },

  'user.created': { module: 'users', webhook: true },
  'user.modified': { module: 'users', webhook: true },
  'user.deleted': { module: 'users', webhook: true },
  'user.password_set': { module: 'users' },
  'user.password_changed': { module: 'users' },
  'user.disabled': { module: 'users' },
  'user.enabled': { module: 'users' },

  'group.created': { module: 'groups' },
  'group.renamed': { module: 'groups' },
  'group.deleted': { module: 'groups' },
  'group.member_added': { module: 'groups' },
  'group.member_removed': { module: 'groups' },
  'group.admin_changed': { module: 'groups' },

  'location.created': { module: 'locations' },
  'location.modified': { module: 'locations' },
  'location.deleted': { module: 'locations' },
  'location.imported': { module: 'locations' },
  'location.devices_mapped': { module: 'locations' },
  'location.token_rotated': { module: 'locations' },

  'device.added': { module: 'devices' },
  'device.modified': { module: 'devices' },
  'device.deleted': { module: 'devices' },
  'device.config_downloaded': { module: 'devices' },
  'network_device.added': { module: 'devices' },
  'network_device.modified': { module: 'devices' },
  'network_device.deleted': { module: 'devices' },
  'network_device.config_downloaded': { module: 'devices' },
  'network_device.cli_token_issued': { module: 'devices' },
  'network_device.pending_deleted': { module: 'devices' },

  'gateway.connected': { module: 'gateways' },
  'gateway.disconnected': { module: 'gateways' },
  'gateway.deleted': { module: 'gateways' },

  'settings.modified': { module: 'settings' },
  'enterprise_settings.modified': { module: 'settings' },
  'licence.modified': { module: 'settings' },
  'licence.removed': { module: 'settings' },
  'mail.test_sent': { module: 'settings' },
  'mail.support_sent': { module: 'settings' },

  'webhook.created': { module: 'webhooks' },
  'webhook.modified': { module: 'webhooks' },
  'webhook.deleted': { module: 'webhooks' },
  'webhook.enabled': { module: 'webhooks' },
  'webhook.disabled': { module: 'webhooks' },
  'webhook.test_sent': { module: 'webhooks' },
  'webhook.redelivered': { module: 'webhooks' },

  'activity_log_stream.created': { module: 'activity_log' },
  'activity_log_stream.modified': { module: 'activity_log' },
  'activity_log_stream.deleted': { module: 'activity_log' },
  'activity_log.exported': { module: 'activity_log' },

  'mfa.method_enabled': { module: 'mfa' },
  'mfa.method_disabled': { module: 'mfa' },
  'mfa.default_changed': { module: 'mfa' },
  'mfa.disabled': { module: 'mfa' },
  'mfa.reset': { module: 'mfa' },
  'mfa.recovery_codes_generated': { module: 'mfa' },
  'mfa.code_failed': { module: 'mfa' },

  'mfa.security_key_added': { module: 'mfa' },
  'mfa.security_key_removed': { module: 'mfa' },

  'oauth_app.authorized': { module: 'openid' },
  'oauth_app.access_denied': { module: 'openid' },
  'oauth_app.authorization_revoked': { module: 'openid' },
  'openid.signing_keys_rotated': { module: 'openid' },
  'oauth_app.created': { module: 'openid' },
  'oauth_app.modified': { module: 'openid' },
  'oauth_app.deleted': { module: 'openid' },
  'oauth_app.enabled': { module: 'openid' },
  'oauth_app.disabled': { module: 'openid' },
  'oauth_app.secret_viewed': { module: 'openid' },
  'oauth_app.secret_regenerated': { module: 'openid' },

  'vpn_session.started': { module: 'locations' },
  'vpn_session.ended': { module: 'locations' },

  'acl_rule.created': { module: 'acl' },
  'acl_rule.modified': { module: 'acl' },
  'acl_rule.deleted': { module: 'acl' },
  'acl_rule.applied': { module: 'acl' },
  'acl_rule.discarded': { module: 'acl' },
  'acl_alias.created': { module: 'acl' },
  'acl_alias.modified': { module: 'acl' },
  'acl_alias.deleted': { module: 'acl' },
  'acl_alias.applied': { module: 'acl' },
  'acl_alias.discarded': { module: 'acl' },

  'auth_key.added': { module: 'keys' },
  'auth_key.renamed': { module: 'keys' },
  'auth_key.removed': { module: 'keys' },

  'api_token.created': { module: 'keys' },
  'api_token.renamed': { module: 'keys' },
  'api_token.deleted': { module: 'keys' },

  'ldap.sync_completed': { module: 'ldap' },

  'directory.sync_completed': { module: 'directory' },
  'directory.sync_failed': { module: 'directory' },

  'worker.registered': { module: 'provisioning' },
  'worker.deleted': { module: 'provisioning' },
  'worker.job_created': { module: 'provisioning' },
  'yubikey.provisioned': { module: 'provisioning', webhook: true },
  'yubikey.provisioning_failed': { module: 'provisioning' },
  'yubikey.renamed': { module: 'provisioning' },
  'yubikey.deleted': { module: 'provisioning' },

  'external_provider.created': { module: 'directory' },
  'external_provider.modified': { module: 'directory' },
  'external_provider.deleted': { module: 'directory' },

  'enrollment.started': { module: 'enrollment' },
  'enrollment.opened': { module: 'enrollment' },
  'enrollment.desktop_started': { module: 'enrollment' },
  'enrollment.password_set': { module: 'enrollment' },
  'enrollment.completed': { module: 'enrollment' },
  'password_reset.requested': { module: 'users' },
  'password_reset.completed': { module: 'users' },
} as const satisfies Record<string, EventTypeInfo>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];
export const WEBHOOK_TRIGGERS = EVENT_TYPES.filter((t) => (EVENT_CATALOGUE[t] as EventTypeInfo).webhook) as [EventType, ...EventType[]];
export const moduleOfEvent = (type: EventType): EventModule => EVENT_CATALOGUE[type].module;

export const ACTOR_TYPES = ['user', 'anonymous', 'system', 'gateway'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** One activity log entry (spec §3: date, user, IP, event, module, device; plus what it touched). */
export const ActivityLogEntrySchema = z
  .object({
    id: z.number().int(),
    timestamp: z.string(),
    actor_type: z.enum(ACTOR_TYPES),
    user_id: z.number().int().optional(),
    username: z.string().optional(),
    ip: z.string().optional(),
    user_agent: z.string().optional(),
    module: z.enum(EVENT_MODULES),
    event: z.enum(EVENT_TYPES as [EventType, ...EventType[]]),
    object_type: z.string().optional(),
    object_id: z.string().optional(),
    object_name: z.string().optional(),
    device_id: z.number().int().optional(),
    device_name: z.string().optional(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ActivityLogEntry' });
export type ActivityLogEntry = z.infer<typeof ActivityLogEntrySchema>;

const isoTime = z.iso.datetime({ offset: true, error: 'invalid' });
/** Query arrays repeat the key (`?module=users&module=auth`); one value arrives as a string. */
const repeated = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(50, { error: 'max_length' }).optional());

export const ACTIVITY_LOG_SORTS = ['-timestamp', 'timestamp'] as const;

export const ActivityLogQuerySchema = PageQuerySchema.extend({
  from: isoTime.optional(),
  to: isoTime.optional(),
  user: repeated(z.string().max(64, { error: 'max_length' })),
  module: repeated(z.enum(EVENT_MODULES, { error: 'invalid' })),
  event: repeated(z.enum(EVENT_TYPES as [EventType, ...EventType[]], { error: 'invalid' })),
  sort: z.enum(ACTIVITY_LOG_SORTS, { error: 'invalid' }).default('-timestamp'),
});
export type ActivityLogQuery = z.infer<typeof ActivityLogQuerySchema>;

/** `total_capped`: a wide filter is counted only up to `total` (10,000); more entries match. */
export const ActivityLogPageSchema = paged(ActivityLogEntrySchema)
  .extend({ total_capped: z.boolean().optional() })
  .meta({ id: 'ActivityLogPage' });
export type ActivityLogPage = z.infer<typeof ActivityLogPageSchema>;

/** The live activity stream: entries after an opaque cursor, in delivery order (ADR-005). */
export const ActivityFeedQuerySchema = z.strictObject({
  cursor: z
    .string()
    .max(64, { error: 'max_length' })
    .regex(/^[0-9]+:[0-9]+$/, { error: 'invalid' })
    .optional(),
  limit: z
    .string()
    .regex(/^[0-9]{1,4}$/, { error: 'number' })
    .optional()
    .transform((v) => (v === undefined ? 100 : Number(v)))
    .pipe(z.number().int().min(1, { error: 'min_value' }).max(500, { error: 'max_value' })),
  wait: z.enum(['0', '1'], { error: 'invalid' }).optional(),
});
export type ActivityFeedQuery = z.infer<typeof ActivityFeedQuerySchema>;
export const ActivityFeedSchema = z.object({ items: z.array(ActivityLogEntrySchema), cursor: z.string() }).meta({ id: 'ActivityFeed' });
export type ActivityFeed = z.infer<typeof ActivityFeedSchema>;

export const ACTIVITY_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export const ActivityLogExportQuerySchema = ActivityLogQuerySchema.omit({ page: true, per_page: true }).extend({
  format: z.enum(ACTIVITY_EXPORT_FORMATS, { error: 'invalid' }).default('csv'),
});
export type ActivityLogExportQuery = z.infer<typeof ActivityLogExportQuerySchema>;
