import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { ATTEMPTS_KEPT } from './webhooks.repo.js';
import type { WebhookPayload } from './webhook-payload.js';

/** A delivery the delivery job has claimed, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  webhook_id: number;
  event_id: number;
  event_type: string;
  payload: WebhookPayload;
  /** Attempts made before this one. */
  attempts: number;
  /** When the retry window started (the delivery was queued or redelivered), epoch ms. */
  created_ms: number;
  url: string;
  token_enc: string;
}

export interface NewDelivery {
  webhook_id: number;
  event_id: number;
  event_type: string;
  payload: WebhookPayload;
}

/** What one attempt gave; written in batches by `recordAttempts`. */
export interface AttemptResult {
  webhook_id: number;
  delivery_id: number;
  event_id: number;
  event_type: string;
  attempt: number;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  outcome: 'delivered' | 'retrying' | 'failed';
  /** When to try again (outcome `retrying`), ISO time. */
  next_attempt_at: string | null;
}

/**
 * The delivery queue (ADR-005): the fan-out inserts deliveries and moves its cursor in one
 * transaction; the delivery job claims due ones with `FOR UPDATE SKIP LOCKED` (so replicas share
 * the work), and writes each batch of attempts, their outcomes and the log trim in one transaction.
 */
export class WebhookDeliveriesRepo {
  constructor(private readonly db: Db) {}

  /** Enabled webhooks and their triggers; none while the webhooks module is off. */
  async subscribers(): Promise<{ id: number; triggers: string[] }[]> {
    return queryRows(
      this.db,
      sql`select w.id, w.triggers from webhooks w
          where w.enabled and coalesce((select s.webhooks_enabled from settings s limit 1), true)`,
    );
  }

  /** Queues deliveries; one that exists for the same webhook and event is left alone. */
  async enqueue(list: NewDelivery[]): Promise<void> {
    if (list.length === 0) return;
    await this.db.execute(
      sql`insert into webhook_deliveries (webhook_id, event_id, event_type, payload)
          select x.webhook_id, x.event_id, x.event_type, x.payload
          from jsonb_to_recordset(${JSON.stringify(list)}::jsonb) as x(webhook_id int, event_id bigint, event_type text, payload jsonb)
          where exists (select 1 from webhooks w where w.id = x.webhook_id)
          on conflict (webhook_id, event_id) do nothing`,
    );
  }

  /**
   * Claims up to `limit` due deliveries for `lockMs` (a crashed sender's claim lapses and the
   * delivery is sent again, with the same `webhook-id`). Disabled webhooks send nothing except a
   * test event; nothing is sent while the webhooks module is off.
   */
  async claim(limit: number, lockMs: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    return queryRows<ClaimedDelivery>(
      this.db,
      sql`with due as (
            select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
            where d.status = 'pending' and d.next_attempt_at <= now()
              and (d.locked_until is null or d.locked_until < now())
              and (w.enabled or d.event_type = 'webhook.test_sent')
              and coalesce((select s.webhooks_enabled from settings s limit 1), true)
            order by d.next_attempt_at limit ${limit}
            for update of d skip locked
          )
          update webhook_deliveries d set locked_until = now() + ${lockMs} * interval '1 millisecond'
          from due, webhooks w
          where d.id = due.id and w.id = d.webhook_id
          returning d.id::float8 as id, d.webhook_id, d.event_id::float8 as event_id, d.event_type, d.payload, d.attempts,
            (extract(epoch from d.created_at) * 1000)::float8 as created_ms, w.url, w.token_enc`,
    );
  }

  /** Milliseconds until `claim` can next return something (undefined when nothing is pending that it could send). */
  async nextDueInMs(): Promise<number | undefined> {
    const [row] = await queryRows<{ ms: number | null }>(
      this.db,
      sql`select (extract(epoch from min(greatest(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at))) - now()) * 1000)::float8 as ms
          from webhook_deliveries d join webhooks w on w.id = d.webhook_id
          where d.status = 'pending' and (w.enabled or d.event_type = 'webhook.test_sent')
            and coalesce((select s.webhooks_enabled from settings s limit 1), true)`,
    );
    return row?.ms ?? undefined;
  }

  /**
   * Writes a batch of attempts: the log rows, each delivery's new state (only while it is still
   * pending: a disable or delete meanwhile wins) and the trim of each webhook's log to the last 100.
   */
  async recordAttempts(results: AttemptResult[]): Promise<void> {
    if (results.length === 0) return;
    const json = JSON.stringify(results);
    await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      await tx.execute(
        sql`insert into webhook_attempts (webhook_id, delivery_id, event_id, event_type, attempt, attempted_at, duration_ms,
              status_code, error, response_excerpt, outcome)
            select x.webhook_id, x.delivery_id, x.event_id, x.event_type, x.attempt, x.attempted_at, x.duration_ms,
              x.status_code, x.error, x.response_excerpt, x.outcome
            from jsonb_to_recordset(${json}::jsonb) as x(webhook_id int, delivery_id bigint, event_id bigint, event_type text,
              attempt int, attempted_at timestamptz, duration_ms int, status_code int, error text, response_excerpt text, outcome text)
            where exists (select 1 from webhook_deliveries d where d.id = x.delivery_id)`,
      );
      await tx.execute(
        sql`update webhook_deliveries d
            set status = case x.outcome when 'retrying' then 'pending' else x.outcome end,
              attempts = x.attempt, next_attempt_at = coalesce(x.next_attempt_at, d.next_attempt_at), locked_until = null
            from jsonb_to_recordset(${json}::jsonb) as x(delivery_id bigint, attempt int, outcome text, next_attempt_at timestamptz)
            where d.id = x.delivery_id and d.status = 'pending'`,
      );
      await tx.execute(
        sql`delete from webhook_attempts a
            using (
              select k.webhook_id, (select b.id from webhook_attempts b where b.webhook_id = k.webhook_id
                order by b.id desc offset ${ATTEMPTS_KEPT - 1} limit 1) as oldest_kept
              from (select distinct x.webhook_id from jsonb_to_recordset(${json}::jsonb) as x(webhook_id int)) k
            ) keep
            where a.webhook_id = keep.webhook_id and a.id < keep.oldest_kept`,
      );
    });
  }
}
