import { rename, rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle, Db } from '#src/db/client.js';
import { APP_VERSION } from '#src/lib/route-schemas.js';
import { ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, type ArchiveTable, ArchiveWriter, type Manifest, type Row } from './archive.js';
import { appliedMigrations, publicSequences, quoteIdent, readJournal, storedColumns, tablesInDependencyOrder } from './catalog.repo.js';

export interface BackupOptions {
  secretKey: Manifest['secret_key'];
}

/** Rows fetched from the cursor at a time. */
const PAGE = 2000;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Writes every public table and sequence to `out`, read in one REPEATABLE READ, read-only
 * transaction (one consistent snapshot): each column as its text form, which the restore casts
 * back. Rows stream through a cursor; the file appears under its name only when complete.
 */
export async function createBackup(handle: DatabaseHandle, out: string, options: BackupOptions): Promise<Manifest> {
  return handle.withConnection(async (db) => {
    const partial = `${out}.partial`;
    const writer = new ArchiveWriter(partial);
    await db.execute(sql`begin isolation level repeatable read read only`);
    try {
      const migrations = await appliedMigrations(db);
      const entry = readJournal().entries.find((e) => e.when === migrations.when);
      const tables: ArchiveTable[] = [];
      for (const name of await tablesInDependencyOrder(db)) {
        const [count] = rowsOf<{ n: number | string }>(await db.execute(sql.raw(`select count(*) as n from public.${quoteIdent(name)}`)));
        tables.push({ name, columns: await storedColumns(db, name), rows: Number(count?.n ?? 0) });
      }
      const manifest: Manifest = {
        format: ARCHIVE_FORMAT,
        format_version: ARCHIVE_FORMAT_VERSION,
        palisade_version: APP_VERSION,
        database: handle.kind === 'pglite' ? 'pglite' : 'postgresql',
        created_at: new Date().toISOString(),
        migrations: { applied: migrations.applied, tag: entry?.tag ?? '', when: migrations.when },
        secret_key: options.secretKey,
        tables,
        sequences: await publicSequences(db),
      };
      await writer.write(manifest);
      for (const table of tables) await writeRows(db, table, writer);
      await db.execute(sql`commit`);
      await writer.close();
      await rename(partial, out);
      return manifest;
    } catch (error) {
      await db.execute(sql`rollback`).catch(() => undefined);
      await writer.abort();
      await rm(partial, { force: true });
      throw error;
    }
  });
}

async function writeRows(db: Db, table: ArchiveTable, writer: ArchiveWriter): Promise<void> {
  const list = table.columns.map((c) => `${quoteIdent(c.name)}::text`).join(', ');
  await db.execute(
    sql.raw(`declare palisade_backup no scroll cursor for select array[${list}]::text[] as r from public.${quoteIdent(table.name)}`),
  );
  let written = 0;
  for (;;) {
    const page = rowsOf<{ r: Row }>(await db.execute(sql.raw(`fetch ${PAGE} from palisade_backup`)));
    await writer.write(...page.map(({ r }) => [table.name, r]));
    written += page.length;
    if (page.length < PAGE) break;
  }
  await db.execute(sql.raw('close palisade_backup'));
  // The snapshot does not change between the count and the read; anything else is a bug.
  if (written !== table.rows) throw new Error(`${table.name}: counted ${table.rows} rows, read ${written}`);
}
