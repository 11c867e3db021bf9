import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * A user's SSH and GPG public keys (spec §3 "authentication keys"), published for other systems
 * (`GET /user/{username}/ssh_keys`). `key` is the normalized public key (SSH: `type base64 name`;
 * GPG: the armored public key, never a private one); `fingerprint` is SHA256 base64 as printed by
 * `ssh-keygen -l` for SSH, the primary key fingerprint (hex) for GPG. `serial` is the smart card's
 * serial when the key was written to a card (YubiKey provisioning), null for keys users paste.
 */
export const authKeys = pgTable(
  'auth_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyType: text('key_type', { enum: ['ssh', 'gpg'] }).notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    serial: text('serial'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('auth_keys_user_fingerprint_key').on(t.userId, t.fingerprint)],
);
