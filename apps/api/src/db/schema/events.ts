import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** PostgreSQL `xid8`: the id of the transaction that wrote a row, read as a decimal string. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The domain events (ADR-005): the outbox every service writes in the same transaction as its
 * change, and at the same time the activity log. `tx_id` is the writing transaction; consumers
 * (webhooks, activity-log streams, the live feed) read in `(tx_id, id)` order and only below the
 * oldest transaction still running, so a slow transaction never commits "behind" a cursor.
 */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    txId: xid8('tx_id').notNull().default(sql`pg_current_xact_id()`),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    actorType: text('actor_type', { enum: ['user', 'anonymous', 'system', 'gateway'] }).notNull(),
    /** The acting user (no foreign key: the log outlives deleted accounts). */
    userId: integer('user_id'),
    username: text('username'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    module: text('module').notNull(),
    type: text('type').notNull(),
    objectType: text('object_type'),
    objectId: text('object_id'),
    objectName: text('object_name'),
    deviceId: integer('device_id'),
    deviceName: text('device_name'),
    /** The account the entry concerns when that is not the actor (a user sees entries about them). */
    subjectUserId: integer('subject_user_id'),
    details: jsonb('details').notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [
    index('events_occurred_idx').on(t.occurredAt.desc(), t.id.desc()),
    index('events_user_occurred_idx').on(t.userId, t.occurredAt.desc()),
    // The activity log filter by username (case-insensitive): one user over a large log.
    index('events_username_occurred_idx').on(sql`lower(${t.username})`, t.occurredAt.desc()),
    index('events_subject_occurred_idx').on(t.subjectUserId, t.occurredAt.desc()),
    index('events_module_occurred_idx').on(t.module, t.occurredAt.desc()),
    index('events_tx_idx').on(t.txId, t.id),
  ],
);

/**
 * One row per consumer of `events` (`webhooks`, `stream:<id>`): its cursor (last `(tx_id, id)`
 * handled) and a lease, so that one replica at a time advances it.
 */
export const eventConsumers = pgTable('event_consumers', {
  name: text('name').primaryKey(),
  cursorTx: xid8('cursor_tx').notNull().default(sql`'0'::xid8`),
  cursorId: bigint('cursor_id', { mode: 'number' }).notNull().default(0),
  leaseOwner: text('lease_owner'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const webhooks = pgTable('webhooks', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  /** The signing secret, sealed with the instance key. */
  tokenEnc: text('token_enc').notNull(),
  triggers: text('triggers').array().notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One event to one webhook: sent until delivered, refused (4xx) or out of retries (24 h). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    /** The body as sent (built when the event is fanned out; the event may be purged later). */
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.id.desc()),
    // Fan-out is idempotent: a consumer that re-reads an event after a crash adds nothing.
    uniqueIndex('webhook_deliveries_event_key').on(t.webhookId, t.eventId),
  ],
);

/** The delivery log: each attempt (the last 100 per webhook are kept). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    attempt: integer('attempt').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    outcome: text('outcome', { enum: ['delivered', 'retrying', 'failed'] }).notNull(),
  },
  (t) => [index('webhook_attempts_webhook_idx').on(t.webhookId, t.id.desc())],
);

/** Activity-log stream destinations (spec §3); each is also the event consumer `stream:<id>`. */
export const activityLogStreams = pgTable('activity_log_streams', {
  id: serial('id').primaryKey(),
  kind: text('kind', { enum: ['vector_http', 'logstash_http'] }).notNull(),
  name: text('name').notNull(),
  url: text('url').notNull(),
  username: text('username').notNull().default(''),
  /** Sealed with the instance key; '' when none. */
  passwordEnc: text('password_enc').notNull().default(''),
  certificate: text('certificate').notNull().default(''),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
