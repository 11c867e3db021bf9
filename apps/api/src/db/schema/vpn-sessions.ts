import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './identity.js';
import { devices, locations } from './networks.js';

/**
 * MFA-authorised VPN sessions of MFA-protected locations (docs/mfa.md). A row starts pending (a
 * challenge for the owner's MFA, `challenge_hash` set, `started_at` null); passing the MFA starts
 * it with a fresh preshared key (sealed with SecretBox). While a session is active (started, not
 * ended) the device's peer is pushed to the location's gateways with that key; starting and ending
 * reach the gateways as peer deltas (triggers of migration 0017).
 */
export const vpnSessions = pgTable(
  'vpn_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    /** SHA-256 of the challenge id handed to the client; cleared when the session starts. */
    challengeHash: text('challenge_hash'),
    challengeExpiresAt: timestamp('challenge_expires_at', { withTimezone: true }).notNull(),
    /** The second factor the challenge is finished with (chosen at start). */
    mfaMethod: text('mfa_method', { enum: ['totp', 'email', 'webauthn'] })
      .notNull()
      .default('totp'),
    /** The WebAuthn challenge the assertion must sign (method `webauthn`); kept until the session starts. */
    webauthnChallenge: text('webauthn_challenge'),
    /** AES-256-GCM sealed (lib/crypto.ts SecretBox); set when the MFA is passed. */
    presharedKeyEnc: text('preshared_key_enc'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    lastHandshake: timestamp('last_handshake', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** `disconnected`, `inactive` (silent for the threshold), `user_disabled`, `replaced`, `mfa_reset`. */
    endReason: text('end_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('vpn_sessions_challenge_key').on(t.challengeHash),
    uniqueIndex('vpn_sessions_active_key').on(t.deviceId, t.locationId).where(sql`${t.startedAt} is not null and ${t.endedAt} is null`),
    index('vpn_sessions_user_idx').on(t.userId, t.createdAt),
    index('vpn_sessions_location_active_idx').on(t.locationId).where(sql`${t.startedAt} is not null and ${t.endedAt} is null`),
  ],
);
