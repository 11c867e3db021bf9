import { bigint, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * A user's security keys / passkeys (WebAuthn). `credential_id` and `public_key` are base64url;
 * `counter` is the last sign counter seen (an assertion must come with a higher one, unless the
 * authenticator does not count and always sends 0).
 */
export const mfaWebauthnKeys = pgTable('mfa_webauthn_keys', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  credentialId: text('credential_id').notNull().unique(),
  publicKey: text('public_key').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  transports: jsonb('transports').$type<string[]>().notNull().default([]),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});

/**
 * Server-side second-factor challenges, one per user and purpose: a WebAuthn challenge
 * (`webauthn_register`, `webauthn_login`) or the keyed hash of an emailed code (`email_enable`,
 * `email_login`, `vpn_email` for a VPN session's MFA). Each is single use (deleted when consumed) and expires; `sent_at` limits resends.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['webauthn_register', 'webauthn_login', 'email_enable', 'email_login', 'vpn_email'] }).notNull(),
    secret: text('secret').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.purpose] })],
);
