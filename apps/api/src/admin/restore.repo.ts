import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle, Db } from '#src/db/client.js';
import { findMigrationsFolder, runMigrations } from '#src/db/migrate.js';
import { ArchiveError, type ArchiveTable, archiveRows, type Manifest, type Row } from './archive.js';
import { isEmptyDatabase, quoteIdent, readJournal, storedColumns, tablesInDependencyOrder } from './catalog.repo.js';

/** Rows per INSERT; a table that references itself goes in one statement (checks at its end). */
const BATCH = 1000;

/**
 * Whether this release can restore the archive: its migrations must be a prefix of this build's
 * journal (an archive from a newer release is refused, before anything is touched).
 */
export function checkMigrationLevel(manifest: Manifest, migrationsFolder = findMigrationsFolder()): void {
  const { applied, when, tag } = manifest.migrations;
  const entries = readJournal(migrationsFolder).entries;
  if (applied > entries.length || (applied > 0 && entries[applied - 1]?.when !== when)) {
    throw new ArchiveError(
      `the backup comes from a newer Palisade (migration ${tag || applied}; this release knows ${entries.length} migrations up to ${entries.at(-1)?.tag}): upgrade Palisade first`,
    );
  }
}

/** A copy of the migrations folder whose journal stops after the first `count` migrations. */
export async function migrationsUpTo(count: number, folder = findMigrationsFolder()): Promise<string> {
  const journal = readJournal(folder);
  const entries = journal.entries.slice(0, count);
  const dir = await mkdtemp(join(tmpdir(), 'palisade-migrations-'));
  await mkdir(join(dir, 'meta'));
  await writeFile(join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries) await copyFile(join(folder, `${e.tag}.sql`), join(dir, `${e.tag}.sql`));
  return dir;
}

/**
 * Loads an archive into an empty database: migrates to the archive's level, inserts every table
 * (parents first, user triggers off so row counts, change feeds and events are taken as saved;
 * the rows migrations seed are replaced by the saved ones),
 * sets the sequences, then migrates to this release's level. All the data goes in one transaction.
 */
export async function restoreBackup(handle: DatabaseHandle, path: string, manifest: Manifest): Promise<void> {
  checkMigrationLevel(manifest);
  if (!(await isEmptyDatabase(handle.db))) {
    throw new ArchiveError('the target database is not empty: restore only into a new, empty database or data directory');
  }
  const partial = await migrationsUpTo(manifest.migrations.applied);
  try {
    await runMigrations(handle, partial);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  await handle.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    // Tables, their order and column types come from the target (migrated to the archive's level),
    // never from the file: the archive must name exactly the same tables and columns.
    const tables = await matchTables(db, manifest);
    for (const t of tables) await tx.execute(sql.raw(`alter table public.${quoteIdent(t.name)} disable trigger user`));
    // Rows the migrations seed (the settings row, row counts) are in the archive as they were saved.
    for (const t of [...tables].reverse()) await tx.execute(sql.raw(`delete from public.${quoteIdent(t.name)}`));
    const byName = new Map(tables.map((t) => [t.name, t]));
    const selfReferencing = new Set<string>();
    for (const t of tables) if (await referencesItself(db, t.name)) selfReferencing.add(t.name);
    let batch: Row[] = [];
    let current: ArchiveTable | undefined;
    const flush = async () => {
      if (current && batch.length > 0) await insertRows(db, current, batch);
      batch = [];
    };
    for await (const [name, values] of archiveRows(path)) {
      if (name !== current?.name) {
        await flush();
        current = byName.get(name);
        if (!current) throw new ArchiveError(`the backup is corrupted (rows of unknown table ${name})`);
      }
      batch.push(values);
      if (batch.length >= BATCH && !selfReferencing.has(name)) await flush();
    }
    await flush();
    for (const t of tables) await tx.execute(sql.raw(`alter table public.${quoteIdent(t.name)} enable trigger user`));
    for (const s of manifest.sequences) {
      if (s.value !== null) await tx.execute(sql`select setval(${`public.${quoteIdent(s.name)}`}::regclass, ${s.value}::bigint, true)`);
    }
  });
  await runMigrations(handle);
  await rebaseTransactionIds(handle.db);
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Transaction ids saved in `xid8` columns (the event outbox's `tx_id`, consumer cursors) come
 * from the source cluster's counter; the target's counter may be far below or above them. New
 * events must sort after every restored event and cursor (modules/events: consumers read in
 * `(tx_id, id)` order), so the restored ids are replaced, order kept, by 3, 4, 5, … (0 stays 0),
 * after the target's counter has been moved past that range when it is not already.
 */
async function rebaseTransactionIds(db: Db): Promise<void> {
  const columns = rowsOf<{ t: string; c: string }>(
    await db.execute(sql`select c.relname as t, a.attname as c from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
        and a.atttypid = 'xid8'::regtype order by 1, 2`),
  );
  if (columns.length === 0) return;
  const values = columns.map(({ t, c }) => `select ${quoteIdent(c)}::text::numeric as v from public.${quoteIdent(t)}`).join(' union ');
  const [count] = rowsOf<{ n: number | string }>(await db.execute(sql.raw(`select count(*) as n from (${values}) s where v > 0`)));
  const needed = Number(count?.n ?? 0) + 10;
  // Each autocommitted call takes one transaction id.
  for (;;) {
    const [current] = rowsOf<{ x: string }>(await db.execute(sql`select pg_current_xact_id()::text as x`));
    if (Number(current?.x ?? 0) > needed) break;
  }
  await db.transaction(async (tx) => {
    await tx.execute(
      sql.raw(`create temporary table palisade_xid_map on commit drop as
      select v, (2 + dense_rank() over (order by v))::text::xid8 as n from (${values}) s where v > 0`),
    );
    for (const { t, c } of columns) {
      await tx.execute(sql.raw(`alter table public.${quoteIdent(t)} disable trigger user`));
      await tx.execute(
        sql.raw(
          `update public.${quoteIdent(t)} x set ${quoteIdent(c)} = m.n from palisade_xid_map m where x.${quoteIdent(c)}::text::numeric = m.v`,
        ),
      );
      await tx.execute(sql.raw(`alter table public.${quoteIdent(t)} enable trigger user`));
    }
  });
}

/** One INSERT of `rows` (values as text, cast to the target's column types). */
async function insertRows(db: Db, table: ArchiveTable, rows: Row[]): Promise<void> {
  const columns = table.columns.map((c) => quoteIdent(c.name)).join(', ');
  const casts = table.columns.map((c, i) => `(r->>${i})::${c.type}`).join(', ');
  const head = sql.raw(`insert into public.${quoteIdent(table.name)} (${columns}) overriding system value
    select ${casts} from jsonb_array_elements(`);
  await db.execute(sql`${head}${JSON.stringify(rows)}::jsonb) as r`);
}

/**
 * The target's tables in dependency order, each with the archive's column order and the target's
 * column types; throws ArchiveError when the archive does not match the schema of its own level.
 */
async function matchTables(db: Db, manifest: Manifest): Promise<ArchiveTable[]> {
  const saved = new Map(manifest.tables.map((t) => [t.name, t]));
  const order = await tablesInDependencyOrder(db);
  const level = manifest.migrations.tag;
  const missing = [...order.filter((t) => !saved.has(t)), ...[...saved.keys()].filter((t) => !order.includes(t))];
  if (missing.length > 0) throw new ArchiveError(`the backup does not match the tables of migration ${level} (${missing.join(', ')})`);
  const tables: ArchiveTable[] = [];
  for (const name of order) {
    const table = saved.get(name) as ArchiveTable;
    const types = new Map((await storedColumns(db, name)).map((c) => [c.name, c.type]));
    const names = table.columns.map((c) => c.name);
    if (names.length !== types.size || names.some((n) => !types.has(n))) {
      throw new ArchiveError(`the backup does not match the columns of ${name} at migration ${level}`);
    }
    tables.push({ ...table, columns: names.map((n) => ({ name: n, type: types.get(n) as string })) });
  }
  return tables;
}

async function referencesItself(db: Db, table: string): Promise<boolean> {
  const result = (await db.execute(sql`select 1 from pg_constraint where contype = 'f' and conrelid = confrelid
    and conrelid = ${`public.${quoteIdent(table)}`}::regclass`)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}
