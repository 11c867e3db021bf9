import { desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { events, users, webhookAttempts, webhookDeliveries, webhooks } from '#src/db/schema/index.js';
import type { EventRecord, NewEventRow } from '#src/modules/events/events.repo.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** A webhook with the outcome of its latest attempt (the overview shows it). */
export interface WebhookRecord extends WebhookRow {
  lastAttemptAt: Date | null;
  lastOutcome: 'delivered' | 'retrying' | 'failed' | null;
}

/** The delivery log keeps this many attempts per webhook. */
export const ATTEMPTS_KEPT = 100;

/**
 * The latest attempt as `<epoch ms> <outcome>` (one subquery instead of two). The outer column is
 * written out qualified: drizzle renders `${webhooks.id}` as a bare `"id"` here, which would bind
 * to the attempt's own id.
 */
const lastAttempt = sql<string | null>`(select (extract(epoch from a.attempted_at) * 1000)::bigint::text || ' ' || a.outcome
  from webhook_attempts a where a.webhook_id = "webhooks"."id" order by a.id desc limit 1)`;

export class WebhooksRepo {
  constructor(private readonly db: Db) {}

  async list(): Promise<WebhookRecord[]> {
    const rows = await this.db.select({ webhook: webhooks, last: lastAttempt }).from(webhooks).orderBy(webhooks.id);
    return rows.map(({ webhook, last }) => withLast(webhook, last));
  }

  async find(id: number): Promise<WebhookRecord | undefined> {
    const [row] = await this.db.select({ webhook: webhooks, last: lastAttempt }).from(webhooks).where(eq(webhooks.id, id));
    return row ? withLast(row.webhook, row.last) : undefined;
  }

  /** Locks the row for the rest of the transaction (update, delete and state changes). */
  async findForUpdate(id: number): Promise<WebhookRow | undefined> {
    const [row] = await this.db.select().from(webhooks).where(eq(webhooks.id, id)).for('update');
    return row;
  }

  async insert(values: typeof webhooks.$inferInsert): Promise<WebhookRow> {
    const [row] = await this.db.insert(webhooks).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, values: Partial<typeof webhooks.$inferInsert>): Promise<void> {
    await this.db
      .update(webhooks)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(webhooks.id, id));
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(webhooks).where(eq(webhooks.id, id));
  }

  /** A disabled webhook stops: what was still pending fails (redeliver can send it again). */
  async stopPending(webhookId: number): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({ status: 'failed', lockedUntil: null })
      .where(sql`${webhookDeliveries.webhookId} = ${webhookId} and ${webhookDeliveries.status} = 'pending'`);
  }

  /** Queues one delivery (the test event); its retry window starts now. */
  async insertDelivery(values: { webhookId: number; eventId: number; eventType: string; payload: unknown }): Promise<number> {
    const [row] = await this.db.insert(webhookDeliveries).values(values).returning({ id: webhookDeliveries.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /**
   * Sends a delivery again from the start: pending now, attempts from 1, a new 24 h retry window
   * (`created_at` is where the window starts). The same `webhook-id` goes out again.
   */
  async redeliver(webhookId: number, deliveryId: number): Promise<{ eventId: number; eventType: string } | undefined> {
    const [row] = await queryRows<{ event_id: number; event_type: string }>(
      this.db,
      sql`update webhook_deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), locked_until = null,
            created_at = now()
          where id = ${deliveryId} and webhook_id = ${webhookId} returning event_id::float8 as event_id, event_type`,
    );
    return row ? { eventId: row.event_id, eventType: row.event_type } : undefined;
  }

  /** Records one event and returns it as consumers read it (the test event's delivery needs its id). */
  async insertEvent(values: NewEventRow): Promise<EventRecord> {
    const [row] = await this.db.insert(events).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return {
      id: row.id,
      tx_id: row.txId,
      occurred_at: row.occurredAt,
      actor_type: row.actorType,
      user_id: row.userId,
      username: row.username,
      ip: row.ip,
      user_agent: row.userAgent,
      module: row.module,
      type: row.type,
      object_type: row.objectType,
      object_id: row.objectId,
      object_name: row.objectName,
      device_id: row.deviceId,
      device_name: row.deviceName,
      subject_user_id: row.subjectUserId,
      details: row.details as Record<string, unknown>,
    };
  }

  /** Users by id or by lower-cased username, in one query (webhook payloads of `user.*` events). */
  async usersByIdOrName(ids: number[], lowerNames: string[]): Promise<UserRow[]> {
    if (ids.length === 0 && lowerNames.length === 0) return [];
    return this.db
      .select()
      .from(users)
      .where(
        or(
          inArray(users.id, ids.length > 0 ? ids : [-1]),
          inArray(sql`lower(${users.username})`, lowerNames.length > 0 ? lowerNames : ['']),
        ),
      );
  }

  /** The delivery log: the latest attempts, newest first. */
  async attempts(webhookId: number, limit = ATTEMPTS_KEPT): Promise<WebhookAttemptRow[]> {
    return this.db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.webhookId, webhookId))
      .orderBy(desc(webhookAttempts.id))
      .limit(limit);
  }
}

function withLast(webhook: WebhookRow, last: string | null): WebhookRecord {
  const [ms, outcome] = last ? last.split(' ') : [];
  return {
    ...webhook,
    lastAttemptAt: ms ? new Date(Number(ms)) : null,
    lastOutcome: (outcome as WebhookRecord['lastOutcome'] | undefined) ?? null,
  };
}
