import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * Personal API tokens (spec §3, docs/api.md "API tokens"). A token is
 * `pal_<token_id>_<secret><checksum>`; only `token_id` (the non-secret lookup part) and the
 * SHA-256 of the whole token are stored, so the database never holds a usable token. SHA-256 (not
 * Argon2) is right here: the secret is 238 random bits, so there is nothing to brute-force, and
 * every Bearer request verifies it. `last_used_at` moves at most once a minute.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenId: text('token_id').notNull(),
    /** SHA-256 of the whole token, hex. */
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_tokens_token_id_key').on(t.tokenId),
    uniqueIndex('api_tokens_user_name_key').on(t.userId, sql`lower(${t.name})`),
  ],
);
