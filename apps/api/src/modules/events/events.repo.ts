import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { preparedRows, queryRows } from '#src/db/rows.js';
import type { events } from '#src/db/schema/index.js';

export type NewEventRow = typeof events.$inferInsert;

/** An event as consumers read it (snake_case, straight from the driver). */
export interface EventRecord {
  id: number;
  tx_id: string;
  occurred_at: Date | string;
  actor_type: 'user' | 'anonymous' | 'system' | 'gateway';
  user_id: number | null;
  username: string | null;
  ip: string | null;
  user_agent: string | null;
  module: string;
  type: string;
  object_type: string | null;
  object_id: string | null;
  object_name: string | null;
  device_id: number | null;
  device_name: string | null;
  subject_user_id: number | null;
  details: Record<string, unknown>;
}

const INSERT_COLUMNS = sql.raw(
  'occurred_at, actor_type, user_id, username, ip, user_agent, module, type, object_type, object_id, object_name, device_id, device_name, subject_user_id, details',
);

const EVENT_VALUE_KEYS = [
  'occurredAt',
  'actorType',
  'userId',
  'username',
  'ip',
  'userAgent',
  'module',
  'type',
  'objectType',
  'objectId',
  'objectName',
  'deviceId',
  'deviceName',
  'subjectUserId',
  'details',
] as const;
type EventValueKey = (typeof EVENT_VALUE_KEYS)[number];

/** An event row as statement parameters (hand-written SQL: the query builder cost ~130 µs a call). */
function eventValues(r: NewEventRow): Record<EventValueKey, unknown> {
  return {
    occurredAt: r.occurredAt ?? null,
    actorType: r.actorType,
    userId: r.userId ?? null,
    username: r.username ?? null,
    ip: r.ip ?? null,
    userAgent: r.userAgent ?? null,
    module: r.module,
    type: r.type,
    objectType: r.objectType ?? null,
    objectId: r.objectId ?? null,
    objectName: r.objectName ?? null,
    deviceId: r.deviceId ?? null,
    deviceName: r.deviceName ?? null,
    subjectUserId: r.subjectUserId ?? null,
    details: JSON.stringify(r.details ?? {}),
  };
}

/** One row of `values` (values or, for the prepared statement, placeholders), typed by casts. */
const valuesTuple = (v: Record<EventValueKey, unknown>): SQL =>
  sql`(coalesce(${v.occurredAt}::timestamptz, now()), ${v.actorType}::text, ${v.userId}::int, ${v.username}::text, ${v.ip}::text,
    ${v.userAgent}::text, ${v.module}::text, ${v.type}::text, ${v.objectType}::text, ${v.objectId}::text, ${v.objectName}::text,
    ${v.deviceId}::int, ${v.deviceName}::text, ${v.subjectUserId}::int, ${v.details}::jsonb)`;

const valuesOf = (rows: NewEventRow[]): SQL =>
  sql.join(
    rows.map((r) => valuesTuple(eventValues(r))),
    sql`, `,
  );

const insertOne = preparedRows<never, EventValueKey>((p) => sql`insert into events (${INSERT_COLUMNS}) values ${valuesTuple(p)}`);

/**
 * For hand-written statements that record their event themselves (the login's single statement):
 * the event's parameters under `event_` names, and the INSERT that reads them.
 */
export type EventParam = `event_${EventValueKey}`;
export function eventParams(r: NewEventRow): Record<EventParam, unknown> {
  const values = eventValues(r);
  return Object.fromEntries(EVENT_VALUE_KEYS.map((k) => [`event_${k}`, values[k]])) as Record<EventParam, unknown>;
}
/**
 * Reads each key by name: `p` may be the placeholder proxy of `preparedRows`, which lists none.
 * With `when`, the row is inserted only when that condition holds (a statement that may decline).
 */
export const eventInsert = (p: Record<EventParam, unknown>, when?: SQL): SQL => {
  const tuple = valuesTuple(Object.fromEntries(EVENT_VALUE_KEYS.map((k) => [k, p[`event_${k}`]])) as Record<EventValueKey, unknown>);
  return when
    ? sql`insert into events (${INSERT_COLUMNS}) select * from (values ${tuple}) v where ${when}`
    : sql`insert into events (${INSERT_COLUMNS}) values ${tuple}`;
};

/** A consumer's position: the last `(tx_id, id)` it has handled. */
export interface EventCursor {
  tx: string;
  id: number;
}

export const formatCursor = (c: EventCursor): string => `${c.tx}:${c.id}`;
export function parseCursor(text: string): EventCursor | undefined {
  const m = /^([0-9]{1,20}):([0-9]{1,16})$/.exec(text);
  return m?.[1] && m[2] ? { tx: m[1], id: Number(m[2]) } : undefined;
}

export const EVENT_COLUMNS = sql`e.id::float8 as id, e.tx_id::text as tx_id, e.occurred_at, e.actor_type, e.user_id, e.username, e.ip,
  e.user_agent, e.module, e.type, e.object_type, e.object_id, e.object_name, e.device_id, e.device_name, e.subject_user_id, e.details`;

/**
 * The outbox and its consumers (ADR-005). Reads never pass the oldest transaction still running
 * in this database (`readHorizon`): a transaction that began earlier but commits later would otherwise land
 * behind a cursor that has moved on, and its event would be skipped.
 */
export class EventsRepo {
  constructor(private readonly db: Db) {}

  /**
   * One hand-written INSERT: drizzle's insert builder took ~130 µs per call, a tenth of the CPU
   * of a whole user update (bench/events-cost.ts); this statement is built in ~15 µs.
   */
  async insert(rows: NewEventRow[]): Promise<void> {
    const [first, ...rest] = rows;
    if (!first) return;
    // One event (the usual case): a named prepared statement, planned once per connection.
    if (rest.length === 0) {
      await insertOne(this.db, eventValues(first));
      return;
    }
    await queryRows(this.db, sql`insert into events (${INSERT_COLUMNS}) values ${valuesOf(rows)}`);
  }

  /**
   * `statement` (one INSERT, UPDATE or DELETE) prefixed with a data-modifying CTE that records
   * `rows`: the change and its events in one statement, so one round trip and no explicit
   * transaction (a single statement is atomic). A separate INSERT plus BEGIN and COMMIT cost a
   * simple write route ~18 % of its throughput (bench/events-cost.ts).
   */
  withEvents(statement: SQL, rows: NewEventRow[]): SQL {
    if (rows.length === 0) return statement;
    return sql`with recorded_events as (insert into events (${INSERT_COLUMNS}) values ${valuesOf(rows)}) ${statement}`;
  }

  /** Up to `limit` committed events after `after`, in delivery order; `where` narrows them. */
  async readAfter(after: EventCursor, limit: number, where?: SQL): Promise<EventRecord[]> {
    const horizon = await this.readHorizon();
    return queryRows<EventRecord>(
      this.db,
      sql`select ${EVENT_COLUMNS} from events e
          where (e.tx_id, e.id) > (${after.tx}::xid8, ${after.id}::bigint)
            and e.tx_id < ${horizon}::xid8
            ${where ? sql`and ${where}` : sql``}
          order by e.tx_id, e.id limit ${limit}`,
    );
  }

  /**
   * The transaction id below which every transaction that could write events has ended: the
   * oldest transaction still running **in this database** — the caller's own included, which its
   * snapshot does not list (a consumer created inside the transaction that records its "created"
   * event must not start after it) — or the snapshot's xmax when none is.
   * PostgreSQL's own `pg_snapshot_xmin` is the oldest over the whole server, so a long
   * transaction in another database (another application, a migration, a parallel test run)
   * would hold every consumer back although it cannot write here.
   *
   * It takes its own statement, and the events are read by the next one, whose snapshot is
   * newer: a transaction of this database running at this snapshot is either still running when
   * `pg_stat_activity` is read (then it bounds the horizon) or has committed before the events
   * are read (then its events are visible to that read). In one statement, one that committed in
   * between would be passed over without being seen.
   */
  async readHorizon(): Promise<string> {
    const [row] = await queryRows<{ horizon: string }>(
      this.db,
      sql`with s as (select pg_current_snapshot() as snap)
          select least(
            pg_snapshot_xmax(s.snap),
            pg_current_xact_id_if_assigned(),
            (select min(x) from pg_snapshot_xip(s.snap) x
              where xid(x) in (select a.backend_xid from pg_stat_activity a
                               where a.datname = current_database() and a.backend_xid is not null))
          )::text as horizon
          from s`,
    );
    if (!row) throw new Error('no read horizon');
    return row.horizon;
  }

  /** The position of "now": every event a consumer created now should not see lies before it. */
  async headCursor(): Promise<EventCursor> {
    const horizon = BigInt(await this.readHorizon());
    return { tx: (horizon - 1n).toString(), id: Number.MAX_SAFE_INTEGER };
  }

  /** How many committed events lie after `after` (a consumer's lag). */
  async countAfter(after: EventCursor, where?: SQL): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from events e
          where (e.tx_id, e.id) > (${after.tx}::xid8, ${after.id}::bigint) ${where ? sql`and ${where}` : sql``}`,
    );
    return row?.n ?? 0;
  }

  /** Creates the consumer at `start` unless it exists; returns its cursor. */
  async ensureConsumer(name: string, start: EventCursor): Promise<EventCursor> {
    await this.db.execute(
      sql`insert into event_consumers (name, cursor_tx, cursor_id) values (${name}, ${start.tx}::xid8, ${start.id})
          on conflict (name) do nothing`,
    );
    const [row] = await queryRows<{ tx: string; id: number }>(
      this.db,
      sql`select cursor_tx::text as tx, cursor_id::float8 as id from event_consumers where name = ${name}`,
    );
    return row ? { tx: row.tx, id: row.id } : start;
  }

  /**
   * Takes (or renews) the consumer's lease for `ms`, so that one replica at a time advances it.
   * Resolves to the cursor when this owner holds the lease, undefined when another does.
   */
  async lease(name: string, owner: string, ms: number): Promise<EventCursor | undefined> {
    const [row] = await queryRows<{ tx: string; id: number }>(
      this.db,
      sql`update event_consumers set lease_owner = ${owner}, lease_until = now() + ${ms} * interval '1 millisecond'
          where name = ${name} and (lease_owner is null or lease_owner = ${owner} or lease_until < now())
          returning cursor_tx::text as tx, cursor_id::float8 as id`,
    );
    return row ? { tx: row.tx, id: row.id } : undefined;
  }

  /** Moves the cursor; false when the lease was lost meanwhile (another replica took over). */
  async advance(name: string, owner: string, cursor: EventCursor): Promise<boolean> {
    const rows = await queryRows<{ name: string }>(
      this.db,
      sql`update event_consumers set cursor_tx = ${cursor.tx}::xid8, cursor_id = ${cursor.id}, updated_at = now()
          where name = ${name} and lease_owner = ${owner} returning name`,
    );
    return rows.length > 0;
  }

  async release(name: string, owner: string): Promise<void> {
    await this.db.execute(
      sql`update event_consumers set lease_owner = null, lease_until = null where name = ${name} and lease_owner = ${owner}`,
    );
  }

  async deleteConsumer(name: string): Promise<void> {
    await this.db.execute(sql`delete from event_consumers where name = ${name}`);
  }

  /** The oldest cursor of all consumers (the purge never deletes what one still has to read). */
  async oldestConsumerCursor(): Promise<EventCursor | undefined> {
    const [row] = await queryRows<{ tx: string; id: number }>(
      this.db,
      sql`select cursor_tx::text as tx, cursor_id::float8 as id from event_consumers order by cursor_tx, cursor_id limit 1`,
    );
    return row ? { tx: row.tx, id: row.id } : undefined;
  }
}
