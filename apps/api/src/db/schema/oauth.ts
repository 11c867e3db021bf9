import { boolean, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * OpenID apps (OAuth clients) registered by admins (docs/openid.md). The OIDC provider reads this
 * table on every client lookup, so disabling or deleting an app takes effect at once.
 */
export const oauthClients = pgTable('oauth_clients', {
  id: serial('id').primaryKey(),
  /** 32 random url-safe characters, generated on creation. */
  clientId: text('client_id').notNull().unique(),
  /** AES-256-GCM sealed (lib/crypto.ts SecretBox); null for public clients (PKCE, no secret). */
  clientSecretEnc: text('client_secret_enc'),
  name: text('name').notNull(),
  redirectUris: text('redirect_uris').array().notNull(),
  scopes: text('scopes').array().notNull(),
  public: boolean('public').notNull().default(false),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
