import { z } from 'zod';

/** What replaces every secret in support data (docs/support.md). */
export const SUPPORT_REDACTED = '[redacted]';

/** A gateway as support data shows it: version and state, never its token. */
export const SupportGatewaySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  location_id: z.number().int(),
  location_name: z.string(),
  hostname: z.string(),
  version: z.string(),
  connected: z.boolean(),
  state: z.string(),
  connected_at: z.string().optional(),
  disconnected_at: z.string().optional(),
  last_seen_at: z.string().optional(),
});

/**
 * GET /support/configuration: what a bug report needs about this instance (docs/support.md).
 * Every secret in `settings` and `external_providers` is replaced by SUPPORT_REDACTED (a secret
 * that is not set stays empty, so the reader sees whether one is configured).
 */
export const SupportConfigurationSchema = z
  .object({
    generated_at: z.string(),
    palisade_version: z.string(),
    node_version: z.string(),
    os: z.object({ platform: z.string(), release: z.string(), arch: z.string() }),
    database: z.object({
      kind: z.enum(['embedded', 'postgresql']),
      server_version: z.string(),
      /** Migrations applied and the newest one's name (apps/api/drizzle). */
      migrations_applied: z.number().int(),
      migration_level: z.string(),
    }),
    modules: z.object({ wireguard: z.boolean(), webhooks: z.boolean(), worker: z.boolean(), openid: z.boolean() }),
    /** The settings row, column by column (database names), secrets redacted. */
    settings: z.record(z.string(), z.unknown()),
    /** External OpenID providers and their directory sync, secrets redacted. */
    external_providers: z.array(z.record(z.string(), z.unknown())),
    counts: z.object({
      users: z.number().int(),
      user_devices: z.number().int(),
      network_devices: z.number().int(),
      locations: z.number().int(),
      gateways: z.number().int(),
      gateways_connected: z.number().int(),
    }),
    gateways: z.array(SupportGatewaySchema),
    /** Where POST /mail/support sends this (env SUPPORT_EMAIL); absent when none is configured. */
    support_email: z.string().optional(),
  })
  .meta({ id: 'SupportConfiguration' });
export type SupportConfiguration = z.infer<typeof SupportConfigurationSchema>;

/** GET /support/logs: the last log lines of the API process, redacted (text/plain). */
export const SupportLogsTextSchema = z.string().meta({ description: 'Log lines (JSON, one per line), oldest first' });
