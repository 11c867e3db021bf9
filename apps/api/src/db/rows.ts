import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
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
