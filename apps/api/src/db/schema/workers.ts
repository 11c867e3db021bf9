import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * YubiKey provisioning (spec §3 Provisioner, docs/provisioning.md, ADR-007). A station registers
 * with the instance's registration token and gets a token of its own: only its SHA-256 is stored,
 * so deleting the worker revokes it. `last_seen_at` moves on every poll (the heartbeat); a worker
 * is available while it is younger than the heartbeat timeout.
 */
export const workers = pgTable(
  'workers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** SHA-256 of the station's own token, hex. */
    tokenHash: text('token_hash').notNull(),
    ip: text('ip'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('workers_name_key').on(sql`lower(${t.name})`), uniqueIndex('workers_token_hash_key').on(t.tokenHash)],
);

/** The station registration token (one row, id 1): shown to admins, so kept in clear. */
export const workerRegistration = pgTable(
  'worker_registration',
  {
    id: integer('id').primaryKey().default(1),
    token: text('token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('worker_registration_one_row', sql`${t.id} = 1`)],
);

/**
 * A provisioning job: write fresh OpenPGP keys onto the card at `worker` for `user`. `taken_at` is
 * set when the station takes it; `state` is `in_progress` until the station reports `success` (with
 * the card serial) or `error` (with its text).
 */
export const workerJobs = pgTable(
  'worker_jobs',
  {
    id: serial('id').primaryKey(),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The admin who asked for it (the actor of the events its result records). */
    requestedById: integer('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    requestedBy: text('requested_by').notNull(),
    state: text('state', { enum: ['in_progress', 'error', 'success'] })
      .notNull()
      .default('in_progress'),
    error: text('error'),
    serial: text('serial'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    takenAt: timestamp('taken_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('worker_jobs_waiting_idx').on(t.workerId, t.id).where(sql`${t.takenAt} is null`)],
);

/**
 * A user's YubiKey (spec §2 User profile: YubiKey), recorded when a station provisioned it. Its
 * SSH and GPG public keys are the user's authentication keys with this `serial`.
 */
export const yubikeys = pgTable(
  'yubikeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    serial: text('serial').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('yubikeys_serial_key').on(t.serial)],
);
