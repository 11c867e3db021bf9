import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * The company's identity provider (spec §3 External OpenID provider; docs/external-openid.md,
 * docs/directory-sync.md). One row per provider name; the console offers one at a time. The
 * general settings of external sign-in (auto-create account, username handling) live on the row:
 * they mean nothing without a provider. Secrets are sealed with the instance SecretBox and never
 * returned (responses carry `*_set`).
 */
export const externalProviders = pgTable(
  'external_providers',
  {
    id: serial('id').primaryKey(),
    /** 'Google' | 'Microsoft' | 'Okta' | 'JumpCloud' | 'Custom'. */
    kind: text('kind', { enum: ['Google', 'Microsoft', 'Okta', 'JumpCloud', 'Custom'] }).notNull(),
    name: text('name').notNull(),
    clientId: text('client_id').notNull(),
    /** Sealed; null for a public client. */
    clientSecret: text('client_secret'),
    baseUrl: text('base_url').notNull(),
    displayName: text('display_name').notNull().default(''),
    autoCreateAccount: boolean('auto_create_account').notNull().default(true),
    /** How a username that is not valid in Palisade is made from the IdP's claims. */
    usernameHandling: text('username_handling', { enum: ['remove', 'replace', 'prune_email'] })
      .notNull()
      .default('remove'),
    enableDirectorySync: boolean('enable_directory_sync').notNull().default(false),
    syncTarget: text('sync_target', { enum: ['all', 'users', 'groups'] })
      .notNull()
      .default('all'),
    /** Seconds between directory-sync runs. */
    syncInterval: integer('sync_interval').notNull().default(1800),
    userBehavior: text('user_behavior', { enum: ['keep', 'disable', 'delete'] })
      .notNull()
      .default('keep'),
    adminBehavior: text('admin_behavior', { enum: ['keep', 'disable', 'delete'] })
      .notNull()
      .default('keep'),
    adminEmail: text('admin_email').notNull().default(''),
    /** Sealed Google service-account key file (JSON). */
    googleServiceAccountKey: text('google_service_account_key'),
    googleServiceAccountEmail: text('google_service_account_email').notNull().default(''),
    oktaClientId: text('okta_client_id').notNull().default(''),
    /** Sealed Okta private JWK (JSON) for `private_key_jwt`. */
    oktaPrivateJwk: text('okta_private_jwk'),
    /** Sealed JumpCloud API key. */
    jumpcloudApiKey: text('jumpcloud_api_key'),
    /** Groups to sync (blank list: all groups). */
    groupMatch: text('group_match').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('external_providers_name_key').on(t.name)],
);

/**
 * A Palisade user's identity at an external provider: `provider` is the provider's name,
 * `subject` its user id (the OpenID `sub`, or the directory's user id for directory sync).
 */
export const externalIdentities = pgTable(
  'external_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('external_identities_provider_subject_key').on(t.provider, t.subject)],
);
