import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { findMigrationsFolder } from '#src/db/migrate.js';
import type { ArchiveColumn } from './archive.js';

/** What the backup and restore commands read from the database's catalogue. */

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export function readJournal(folder = findMigrationsFolder()): { entries: JournalEntry[] } & Record<string, unknown> {
  return JSON.parse(readFileSync(`${folder}/meta/_journal.json`, 'utf8'));
}

/** Public tables, parents before the tables that reference them (self-references ignored). */
export async function tablesInDependencyOrder(db: Db): Promise<string[]> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`),
  ).map((r) => r.name);
  const edges = rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`select c.relname as child, p.relname as parent from pg_constraint k
      join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = 'public'::regnamespace and k.conrelid <> k.confrelid`),
  );
  const order: string[] = [];
  const left = new Set(tables);
  while (left.size > 0) {
    const ready = [...left].filter((t) => !edges.some((e) => e.child === t && left.has(e.parent)));
    if (ready.length === 0) throw new Error(`foreign keys form a cycle between tables: ${[...left].join(', ')}`);
    for (const t of ready) {
      order.push(t);
      left.delete(t);
    }
  }
  return order;
}

/** Stored (not generated) columns of a table, in column order. */
export async function storedColumns(db: Db, table: string): Promise<ArchiveColumn[]> {
  return rowsOf<ArchiveColumn>(
    await db.execute(sql`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type from pg_attribute a
      where a.attrelid = ${`public.${quoteIdent(table)}`}::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attnum`),
  );
}

export async function publicSequences(db: Db): Promise<{ name: string; value: string | null }[]> {
  return rowsOf<{ name: string; value: string | number | null }>(
    await db.execute(sql`select sequencename as name, last_value as value from pg_sequences where schemaname = 'public' order by 1`),
  ).map((r) => ({ name: r.name, value: r.value === null ? null : String(r.value) }));
}

/** Applied migrations (drizzle's own table), 0 when the database was never migrated. */
export async function appliedMigrations(db: Db): Promise<{ applied: number; when: number | null }> {
  const [exists] = rowsOf<{ t: string | null }>(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`));
  if (!exists?.t) return { applied: 0, when: null };
  const [row] = rowsOf<{ applied: number | string; newest: number | string | null }>(
    await db.execute(sql`select count(*) as applied, max(created_at) as newest from drizzle.__drizzle_migrations`),
  );
  return { applied: Number(row?.applied ?? 0), when: row?.newest === null || row?.newest === undefined ? null : Number(row.newest) };
}

/** Tables in the public schema plus applied migrations: zero and zero is an empty database. */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ n: number | string }>(
    await db.execute(
      sql`select count(*) as n from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'v', 'S')`,
    ),
  );
  return Number(row?.n ?? 0) === 0 && (await appliedMigrations(db)).applied === 0;
}
