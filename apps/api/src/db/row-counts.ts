import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';
import { queryRows } from './rows.js';
import { rowCounts } from './schema/index.js';

/**
 * The total of a paged list as one SQL expression: with `kept` (a row_counts name, migration
 * 0005) the trigger-kept count, falling back to counting when its row is missing; without, a
 * count of the rows `where` selects.
 */
export function totalOf(table: PgTable, where: SQL, kept?: string): SQL {
  const counted = sql`(select count(*) from ${table} ${where})`;
  return kept ? sql`coalesce((select ${rowCounts.n} from ${rowCounts} where ${rowCounts.name} = ${kept}), ${counted})` : counted;
}

/** Counts the rows of `table` that `where` (a `where …` clause, or empty) selects. */
export async function countRows(db: Db, table: PgTable, where: SQL): Promise<number> {
  const [row] = await queryRows<{ n: string | number }>(db, sql`select count(*) as n from ${table} ${where}`);
  return Number(row?.n ?? 0);
}
