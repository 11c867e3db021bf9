import { Readable } from 'node:stream';
import type { ActivityFeed, ActivityFeedQuery, ActivityLogExportQuery, ActivityLogPage, ActivityLogQuery } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { fieldProblem } from '#src/lib/problem.js';
import { userActor } from '#src/modules/events/event-actor.js';
import type { EventSignal } from '#src/modules/events/event-signal.js';
import { type EventCursor, formatCursor, parseCursor } from '#src/modules/events/events.repo.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { type ActivityFilter, ActivityLogRepo, type ActivityRow, type ActivityScope } from './activity-log.repo.js';
import { csvHeader, csvLine, jsonLine } from './activity-log.export.js';
import { toEntry } from './activity-log.mapper.js';

/** How many entries the feed starts with (newest last). */
export const FEED_LATEST = 50;
/** How long `wait=1` holds a request that has nothing new. */
export const LONG_POLL_MS = 25_000;
/** A held request re-reads at least this often (a lost notification, a transaction still open). */
const RECHECK_MS = 2_000;
/** The export streams at most this many rows (docs/activity-log.md). */
export const EXPORT_MAX_ROWS = 1_000_000;
const EXPORT_PAGE = 1_000;
const MAX_XID8 = 2n ** 64n - 1n;

const scopeOf = (actor: Actor): ActivityScope => (actor.isAdmin ? { all: true } : { all: false, userId: actor.userId });

/** A query time as PostgreSQL reads it; an instant outside years 1–9999 is a 400, not a 500. */
function timeOf(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  const year = time.getUTCFullYear();
  if (Number.isNaN(time.getTime()) || year < 1 || year > 9999) throw fieldProblem(field, 'invalid', 'Not a valid date and time.');
  return time.toISOString();
}

function filterOf(query: Omit<ActivityLogQuery, 'page' | 'per_page'>): ActivityFilter {
  const from = timeOf(query.from, 'from');
  const to = timeOf(query.to, 'to');
  if (from && to && from > to) throw fieldProblem('to', 'invalid', 'The end of the range is before its start.');
  return {
    from,
    to,
    users: query.user,
    modules: query.module,
    events: query.event,
    search: query.search || undefined,
    descending: query.sort === '-timestamp',
  };
}

function cursorOf(text: string): EventCursor {
  const cursor = parseCursor(text);
  if (!cursor || BigInt(cursor.tx) > MAX_XID8 || !Number.isSafeInteger(cursor.id)) {
    throw fieldProblem('cursor', 'invalid', 'Not a cursor this feed returned.');
  }
  return cursor;
}

const later = (a: EventCursor, b: EventCursor): EventCursor => {
  const ta = BigInt(a.tx);
  const tb = BigInt(b.tx);
  return ta > tb || (ta === tb && a.id >= b.id) ? a : b;
};

export interface ActivityExport {
  filename: string;
  contentType: string;
  body: Readable;
}

export class ActivityLogService {
  readonly #repo: ActivityLogRepo;

  constructor(
    private readonly db: Db,
    private readonly signal: EventSignal,
  ) {
    this.#repo = new ActivityLogRepo(db);
  }

  async list(actor: Actor, query: ActivityLogQuery): Promise<ActivityLogPage & { total_capped?: boolean }> {
    const filter = filterOf(query);
    const offset = (query.page - 1) * query.per_page;
    const { rows, total, capped } = await this.#repo.page(filter, scopeOf(actor), query.per_page, offset);
    return {
      items: rows.map(toEntry),
      page: query.page,
      per_page: query.per_page,
      total,
      ...(capped ? { total_capped: true } : {}),
    };
  }

  /**
   * The live feed. Without a cursor: the latest entries and the head. With one: what committed
   * after it, in delivery order (EventsRepo.readAfter never passes a transaction still running,
   * so a reconnecting client neither loses nor repeats a row). With `wait`, a request that finds
   * nothing waits for the next commit, up to LONG_POLL_MS or until `abort` (the client left).
   */
  async feed(actor: Actor, query: ActivityFeedQuery, abort?: AbortSignal): Promise<ActivityFeed> {
    const scope = scopeOf(actor);
    if (query.cursor === undefined) {
      const head = await this.#repo.headCursor();
      const rows = await this.#repo.latest(scope, head, FEED_LATEST);
      return { items: rows.map(toEntry), cursor: formatCursor(head) };
    }
    let after = cursorOf(query.cursor);
    const deadline = Date.now() + (query.wait === '1' ? LONG_POLL_MS : 0);
    for (;;) {
      const generation = this.signal.generation;
      // Read before the rows: everything up to `head` had finished when they were read.
      const head = await this.#repo.headCursor();
      const rows = await this.#repo.readAfter(scope, after, query.limit);
      const last = rows.at(-1);
      const reached = last ? { tx: last.tx_id, id: Number(last.id) } : after;
      // A short read saw every visible row up to `head`: rows this caller may not see are skipped for good.
      after = rows.length < query.limit ? later(reached, head) : reached;
      const left = deadline - Date.now();
      if (rows.length > 0 || left <= 0 || abort?.aborted) return { items: rows.map(toEntry), cursor: formatCursor(after) };
      await this.signal.wait(Math.min(left, RECHECK_MS), generation, abort);
    }
  }

  /**
   * The filter's entries as CSV or JSON lines, read in keyset pages so that a large export never
   * sits in memory; records `activity_log.exported` before the first byte.
   */
  async export(actor: Actor, query: ActivityLogExportQuery): Promise<ActivityExport> {
    const filter = filterOf(query);
    const scope = scopeOf(actor);
    await recordEvent(this.db, {
      type: 'activity_log.exported',
      actor: userActor(actor),
      object: { type: 'activity_log' },
      details: { format: query.format, filter: exportedFilter(query) },
    });
    const repo = this.#repo;
    const csv = query.format === 'csv';
    async function* lines(): AsyncGenerator<string> {
      if (csv) yield csvHeader();
      let after: { key: string; id: number } | undefined;
      let sent = 0;
      while (sent < EXPORT_MAX_ROWS) {
        const rows: ActivityRow[] = await repo.pageAfter(filter, scope, after, Math.min(EXPORT_PAGE, EXPORT_MAX_ROWS - sent));
        if (rows.length === 0) return;
        yield rows.map((row) => (csv ? csvLine(toEntry(row)) : jsonLine(toEntry(row)))).join('');
        sent += rows.length;
        const last = rows.at(-1) as ActivityRow;
        after = { key: last.occurred_key, id: Number(last.id) };
      }
    }
    const date = new Date().toISOString().slice(0, 10);
    return {
      filename: `activity-log-${date}.${csv ? 'csv' : 'jsonl'}`,
      contentType: csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      body: Readable.from(lines()),
    };
  }
}

function exportedFilter(query: ActivityLogExportQuery): Record<string, unknown> {
  const { format: _format, ...filter } = query;
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
}
