import { bigint, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * The second factors a user has enabled, one row per method (`totp`, `email`, `webauthn`). The
 * user's `mfa_enabled` / `mfa_method` (default) follow these rows (modules/mfa/mfa.core.ts).
 */
export const mfaMethods = pgTable(
  'mfa_methods',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text('method', { enum: ['totp', 'email', 'webauthn'] }).notNull(),
    enabledAt: timestamp('enabled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.method] })],
);

/**
 * A user's TOTP secret (sealed with the instance secret), set by `POST /auth/totp/init` and
 * enabled by the first valid code. `last_step` is the last accepted time step: codes of that step
 * or earlier are refused (replay).
 */
export const mfaTotp = pgTable('mfa_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Recovery codes: HMAC-SHA256 under a key derived from the instance secret; each single use. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);
