import { createHash } from 'node:crypto';
import { fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client.js';

interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  $client?: unknown;
  /** A transaction handle's session: its `client` is the connection the transaction runs on. */
  session?: { client?: unknown };
}

/** The node-postgres pool or connection behind a handle (a transaction's own connection too). */
function pgClientOf(internals: DrizzleInternals): pg.Pool | pg.Client | undefined {
  const client = internals.$client ?? internals.session?.client;
  return client instanceof pg.Pool || client instanceof pg.Client ? client : undefined;
}

const names = new Map<string, string>();
/** A stable statement name per SQL text (the text holds no values: they are all parameters). */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `p_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs one hand-written statement and returns its rows as the driver produced them (snake_case
 * columns). For hot paths where the query builder's per-call cost shows in profiles: on
 * PostgreSQL it runs as a named prepared statement, so each pooled connection plans it once
 * (PostgreSQL switches to a generic plan when that is as good), inside a transaction handle on
 * the transaction's connection; on PGlite it runs as an ordinary parameterised query.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const internals = db as unknown as DrizzleInternals;
  const client = pgClientOf(internals);
  if (client) {
    const { sql: text, params } = internals.dialect.sqlToQuery(query);
    const result = await client.query({ name: statementName(text), text, values: params as unknown[] });
    return result.rows as T[];
  }
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/**
 * A hot-path statement whose SQL text is built once: `build` writes `${p.name}` for each value
 * (and must not branch on the values); the first run builds the text with drizzle placeholders,
 * later runs only bind values. Building the query through drizzle on every call showed in
 * profiles of the per-request session lookup and the user list. On PGlite it runs like
 * `queryRows`.
 */
export function preparedRows<T, K extends string>(
  build: (p: Record<K, unknown>) => SQL,
  options: { types?: pg.CustomTypesConfig } = {},
): (db: Db, values: Record<K, unknown>) => Promise<T[]> {
  let prepared: { name: string; text: string; params: unknown[] } | undefined;
  return async (db, values) => {
    const internals = db as unknown as DrizzleInternals;
    const client = pgClientOf(internals);
    if (!client) return queryRows<T>(db, build(values));
    if (!prepared) {
      const placeholders = new Proxy({} as Record<K, unknown>, { get: (_, key) => sql.placeholder(String(key)) });
      const { sql: text, params } = internals.dialect.sqlToQuery(build(placeholders));
      prepared = { name: statementName(text), text, params };
    }
    const result = await client.query({
      name: prepared.name,
      text: prepared.text,
      values: fillPlaceholders(prepared.params, values),
      ...(options.types ? { types: options.types } : {}),
    });
    return result.rows as T[];
  };
}

const TIMESTAMPTZ_OID = 1184;
const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ_OID) as (text: string) => Date;

/**
 * For `preparedRows`' `types`: `timestamptz` columns arrive as PostgreSQL's text instead of a
 * `Date`, for rows whose timestamps only go back out as ISO strings (`isoTimestamp`). Parsing
 * each into a `Date` and formatting it again cost ~1.6 µs per value: 80 µs per 50-user page.
 */
export const TIMESTAMPS_AS_TEXT: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ_OID ? (text: string) => text : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The ISO 8601 form (`toISOString`) of a timestamp read as a `Date` or, with
 * `TIMESTAMPS_AS_TEXT`, as PostgreSQL text. UTC text (`2026-11-24 08:19:00.123456+00`, a session
 * in UTC) is rearranged; anything else (another session time zone, BC dates, infinity) goes through
 * the driver's own parser.
 */
export function isoTimestamp(value: Date | string): string {
  if (typeof value !== 'string') return value.toISOString();
  if (value.length < 22 || value.charCodeAt(10) !== 32 || !value.endsWith('+00')) {
    return parseTimestamptz(value).toISOString();
  }
  const fraction = value.length > 22 ? value.slice(20, -3) : '';
  return `${value.slice(0, 10)}T${value.slice(11, 19)}.${fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0')}Z`;
}
