import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Everything the OpenID provider (oidc-provider) stores: sessions, interactions, grants,
 * authorization codes, access and refresh tokens (`model` is the provider's model name). Rows past
 * `expires_at` are never returned and are deleted by the `oidc-purge` job. `account_id` (the
 * user's `oidc_sub`) and `client_id` are copied out of the payload so a user's grants per app can
 * be found and revoked.
 */
export const oidcArtifacts = pgTable(
  'oidc_artifacts',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    accountId: text('account_id'),
    clientId: text('client_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_artifacts_grant_idx').on(t.grantId),
    index('oidc_artifacts_uid_idx').on(t.model, t.uid),
    index('oidc_artifacts_expires_idx').on(t.expiresAt),
    index('oidc_artifacts_account_client_idx').on(t.accountId, t.clientId).where(sql`${t.model} = 'Grant'`),
  ],
);

/**
 * The provider's signing keys (RS256 and ES256), private JWKs sealed with the SecretBox. A key
 * signs from `activates_at` until `retires_at`; it is published in the JWKS from creation until
 * its last ID tokens have expired (oidc/signing-keys.ts).
 */
export const oidcSigningKeys = pgTable('oidc_signing_keys', {
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  privateJwkEnc: text('private_jwk_enc').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  activatesAt: timestamp('activates_at', { withTimezone: true }).notNull().defaultNow(),
  retiresAt: timestamp('retires_at', { withTimezone: true }),
});
