import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { preparedRows, queryRows, TIMESTAMPS_AS_TEXT } from '#src/db/rows.js';
import { EVENT_COLUMNS, type EventCursor, type EventRecord, EventsRepo } from '#src/modules/events/events.repo.js';

/**
 * The activity log is the `events` table (ADR-005) read for people. Scoping lives here: an
 * administrator reads every row; anyone else reads the rows they caused (`user_id`) and the rows
 * about their own account (`subject_user_id`), nothing else (docs/activity-log.md).
 */

/** Whose rows a caller may read: all of them, or those of one user. */
export type ActivityScope = { all: true } | { all: false; userId: number };

export interface ActivityFilter {
  from?: string | undefined;
  to?: string | undefined;
  users?: string[] | undefined;
  modules?: string[] | undefined;
  events?: string[] | undefined;
  search?: string | undefined;
  /** Newest first (the default) or oldest first; ties by id in the same direction. */
  descending: boolean;
}

/** A wide filter is counted up to this many rows (an exact count of 1,000,000 rows costs ~100 ms). */
export const TOTAL_CAP = 10_000;

/** A row as the list and the export read it: the event plus its timestamp as PostgreSQL text. */
export type ActivityRow = EventRecord & { occurred_key: string };

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export function scopeCondition(scope: ActivityScope): SQL | undefined {
  return scope.all ? undefined : sql`(e.user_id = ${scope.userId} or e.subject_user_id = ${scope.userId})`;
}

/** Which filters a query uses: a statement's text depends on this only (values are parameters). */
interface Shape {
  scoped: boolean;
  from: boolean;
  to: boolean;
  users: boolean;
  modules: boolean;
  events: boolean;
  search: boolean;
  descending: boolean;
}
type FilterValue = 'me' | 'from' | 'to' | 'users' | 'modules' | 'events' | 'pattern';

function shapeOf(filter: ActivityFilter, scope: ActivityScope): Shape {
  return {
    scoped: !scope.all,
    from: filter.from !== undefined,
    to: filter.to !== undefined,
    users: (filter.users?.length ?? 0) > 0,
    modules: (filter.modules?.length ?? 0) > 0,
    events: (filter.events?.length ?? 0) > 0,
    search: Boolean(filter.search),
    descending: filter.descending,
  };
}

function valuesOf(filter: ActivityFilter, scope: ActivityScope): Record<FilterValue, unknown> {
  return {
    me: scope.all ? null : scope.userId,
    from: filter.from ?? null,
    to: filter.to ?? null,
    users: filter.users?.map((u) => u.toLowerCase()) ?? null,
    modules: filter.modules ?? null,
    events: filter.events ?? null,
    pattern: filter.search ? `%${escapeLike(filter.search.toLowerCase())}%` : null,
  };
}

/** A list as one array parameter (drizzle would spread a bare array into a list of parameters). */
const list = (value: unknown): SQL => (Array.isArray(value) ? sql`${sql.param(value)}::text[]` : sql`${value}::text[]`);

/** The filter as SQL over `events e`; `p` holds the values or, for a prepared statement, placeholders. */
function conditions(shape: Shape, p: Record<FilterValue, unknown>): SQL[] {
  const parts: SQL[] = [];
  if (shape.scoped) parts.push(sql`(e.user_id = ${p.me} or e.subject_user_id = ${p.me})`);
  if (shape.from) parts.push(sql`e.occurred_at >= ${p.from}::timestamptz`);
  if (shape.to) parts.push(sql`e.occurred_at <= ${p.to}::timestamptz`);
  if (shape.users) parts.push(sql`lower(e.username) = any(${list(p.users)})`);
  if (shape.modules) parts.push(sql`e.module = any(${list(p.modules)})`);
  if (shape.events) parts.push(sql`e.type = any(${list(p.events)})`);
  if (shape.search) {
    parts.push(sql`(lower(e.username) like ${p.pattern} or lower(e.object_name) like ${p.pattern} or e.type like ${p.pattern}
      or e.ip like ${p.pattern} or lower(e.device_name) like ${p.pattern})`);
  }
  return parts;
}

const whereOf = (parts: SQL[]): SQL => (parts.length > 0 ? sql`where ${sql.join(parts, sql` and `)}` : sql``);

type PageRun = (
  db: Db,
  values: Record<FilterValue | 'cap' | 'perPage' | 'offset', unknown>,
) => Promise<(EventRecord & { total: number })[]>;
const pageStatements = new Map<string, PageRun>();

/**
 * The page statement of a filter's shape (at most 2^8 of them), built once: on PostgreSQL a named
 * prepared statement, timestamps read as text (rows.ts) since they only go back out as ISO strings.
 */
function pageStatement(shape: Shape): PageRun {
  const key = JSON.stringify(shape);
  let run = pageStatements.get(key);
  if (!run) {
    run = preparedRows<EventRecord & { total: number }, FilterValue | 'cap' | 'perPage' | 'offset'>(
      (p) => {
        const where = whereOf(conditions(shape, p));
        const dir = shape.descending ? sql`desc` : sql`asc`;
        return sql`with total as (select count(*)::int as total from (select 1 from events e ${where} limit ${p.cap}) c),
          page as (select ${EVENT_COLUMNS} from events e ${where} order by e.occurred_at ${dir}, e.id ${dir} limit ${p.perPage} offset ${p.offset})
          select t.total, p.* from total t left join page p on true order by p.occurred_at ${dir}, p.id ${dir}`;
      },
      { types: TIMESTAMPS_AS_TEXT },
    );
    pageStatements.set(key, run);
  }
  return run;
}

const ROW_COLUMNS = sql`${EVENT_COLUMNS}, e.occurred_at::text as occurred_key`;

export class ActivityLogRepo {
  readonly #events: EventsRepo;

  constructor(private readonly db: Db) {
    this.#events = new EventsRepo(db);
  }

  /**
   * One page and the total in one statement. The total counts at most TOTAL_CAP + 1 matching
   * rows, so a wide filter over a large log stays cheap; `capped` says the real total is larger.
   */
  async page(
    filter: ActivityFilter,
    scope: ActivityScope,
    perPage: number,
    offset: number,
  ): Promise<{ rows: EventRecord[]; total: number; capped: boolean }> {
    const rows = await pageStatement(shapeOf(filter, scope))(this.db, {
      ...valuesOf(filter, scope),
      cap: TOTAL_CAP + 1,
      perPage,
      offset,
    });
    const total = rows[0]?.total ?? 0;
    return {
      rows: rows.filter((r) => r.id !== null),
      total: Math.min(total, TOTAL_CAP),
      capped: total > TOTAL_CAP,
    };
  }

  /** The next `limit` rows after `after` in the filter's order (keyset paging for the export). */
  async pageAfter(
    filter: ActivityFilter,
    scope: ActivityScope,
    after: { key: string; id: number } | undefined,
    limit: number,
  ): Promise<ActivityRow[]> {
    const parts = conditions(shapeOf(filter, scope), valuesOf(filter, scope));
    const dir = filter.descending ? sql`desc` : sql`asc`;
    const cmp = filter.descending ? sql`<` : sql`>`;
    if (after) parts.push(sql`(e.occurred_at, e.id) ${cmp} (${after.key}::timestamptz, ${after.id}::bigint)`);
    const clause = whereOf(parts);
    return queryRows<ActivityRow>(
      this.db,
      sql`select ${ROW_COLUMNS} from events e ${clause} order by e.occurred_at ${dir}, e.id ${dir} limit ${limit}`,
    );
  }

  /** The position of "now" for the live feed (ADR-005). */
  headCursor(): Promise<EventCursor> {
    return this.#events.headCursor();
  }

  /** The latest `limit` visible entries at or before `head`, oldest first. */
  async latest(scope: ActivityScope, head: EventCursor, limit: number): Promise<EventRecord[]> {
    const upTo = sql`e.tx_id <= ${head.tx}::xid8`;
    // A user's own entries and those about them, each branch walking its index, instead of the
    // whole log in commit order filtered down to a few rows.
    const query = scope.all
      ? sql`select ${EVENT_COLUMNS} from events e where ${upTo} order by e.tx_id desc, e.id desc limit ${limit}`
      : sql`select * from (
            (select ${EVENT_COLUMNS} from events e where e.user_id = ${scope.userId} and ${upTo} order by e.occurred_at desc limit ${limit})
            union
            (select ${EVENT_COLUMNS} from events e where e.subject_user_id = ${scope.userId} and ${upTo} order by e.occurred_at desc limit ${limit})
          ) x order by x.tx_id::xid8 desc, x.id desc limit ${limit}`;
    const rows = await queryRows<EventRecord>(this.db, query);
    return rows.reverse();
  }

  /** Takes the purge's session lock on this connection; false when another replica holds it. */
  async tryLock(key: number): Promise<boolean> {
    const [row] = await queryRows<{ ok: boolean }>(this.db, sql`select pg_try_advisory_lock(${key}) as ok`);
    return row?.ok === true;
  }

  async unlock(key: number): Promise<void> {
    await this.db.execute(sql`select pg_advisory_unlock(${key})`);
  }

  /**
   * Deletes up to `limit` entries older than `days` days, oldest first, in one short statement.
   * Entries at or after `keep` (the oldest consumer cursor) stay: a webhook or stream has still
   * to deliver them. Row locks only: inserts go on meanwhile.
   */
  async purgeBatch(days: number, keep: EventCursor | undefined, limit: number): Promise<number> {
    const kept = keep ? sql`and (e.tx_id, e.id) < (${keep.tx}::xid8, ${keep.id}::bigint)` : sql``;
    const rows = await queryRows<{ n: number }>(
      this.db,
      sql`with gone as (
            delete from events where id = any(array(
              select e.id from events e where e.occurred_at < now() - make_interval(days => ${days}) ${kept}
              order by e.occurred_at, e.id limit ${limit}))
            returning 1)
          select count(*)::int as n from gone`,
    );
    return rows[0]?.n ?? 0;
  }

  oldestConsumerCursor(): Promise<EventCursor | undefined> {
    return this.#events.oldestConsumerCursor();
  }

  /** Visible entries after `after`, in delivery order (never past a transaction still running). */
  readAfter(scope: ActivityScope, after: EventCursor, limit: number): Promise<EventRecord[]> {
    return this.#events.readAfter(after, limit, scopeCondition(scope));
  }
}
