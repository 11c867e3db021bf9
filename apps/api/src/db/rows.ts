import { createHash } from 'node:crypto';
import { fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client.js';

interface DrizzleInternals {
  dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  $client?: unknown;
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
 * (PostgreSQL switches to a generic plan when that is as good); on PGlite, or inside a
 * transaction handle, it runs as an ordinary parameterised query.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const internals = db as unknown as DrizzleInternals;
  const client = internals.$client;
  if (client instanceof pg.Pool || client instanceof pg.Client) {
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
 * profiles of the per-request session lookup and the user list. Inside a transaction handle or
 * on PGlite it runs like `queryRows`.
 */
export function preparedRows<T, K extends string>(
  build: (p: Record<K, unknown>) => SQL,
): (db: Db, values: Record<K, unknown>) => Promise<T[]> {
  let prepared: { name: string; text: string; params: unknown[] } | undefined;
  return async (db, values) => {
    const internals = db as unknown as DrizzleInternals;
    const client = internals.$client;
    if (!(client instanceof pg.Pool || client instanceof pg.Client)) return queryRows<T>(db, build(values));
    if (!prepared) {
      const placeholders = new Proxy({} as Record<K, unknown>, { get: (_, key) => sql.placeholder(String(key)) });
      const { sql: text, params } = internals.dialect.sqlToQuery(build(placeholders));
      prepared = { name: statementName(text), text, params };
    }
    const result = await client.query({ name: prepared.name, text: prepared.text, values: fillPlaceholders(prepared.params, values) });
    return result.rows as T[];
  };
}
