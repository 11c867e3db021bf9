import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '#src/db/client.js';
import { APP_VERSION } from '#src/lib/route-schemas.js';
import { type Archive, ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, type ArchiveTable, type Manifest } from './archive.js';
import { appliedMigrations, publicSequences, quoteIdent, readJournal, storedColumns, tablesInDependencyOrder } from './catalog.repo.js';

export interface BackupOptions {
  secretKey: Manifest['secret_key'];
}

/**
 * Reads every public table and sequence in one REPEATABLE READ, read-only transaction (one
 * consistent snapshot): each column as its text form, which the restore casts back.
 */
export async function createBackup(handle: DatabaseHandle, options: BackupOptions): Promise<Archive> {
  return handle.withConnection(async (db) => {
    await db.execute(sql`begin isolation level repeatable read read only`);
    try {
      const migrations = await appliedMigrations(db);
      const entry = readJournal().entries.find((e) => e.when === migrations.when);
      const tables: ArchiveTable[] = [];
      const rows = new Map<string, (string | null)[][]>();
      for (const name of await tablesInDependencyOrder(db)) {
        const columns = await storedColumns(db, name);
        const list = columns.map((c) => `${quoteIdent(c.name)}::text`).join(', ');
        const result = (await db.execute(sql.raw(`select array[${list}]::text[] as r from public.${quoteIdent(name)}`))) as unknown as {
          rows: { r: (string | null)[] }[];
        };
        rows.set(
          name,
          result.rows.map((r) => r.r),
        );
        tables.push({ name, columns, rows: result.rows.length });
      }
      const sequences = await publicSequences(db);
      await db.execute(sql`commit`);
      const manifest: Manifest = {
        format: ARCHIVE_FORMAT,
        format_version: ARCHIVE_FORMAT_VERSION,
        palisade_version: APP_VERSION,
        database: handle.kind === 'pglite' ? 'pglite' : 'postgresql',
        created_at: new Date().toISOString(),
        migrations: { applied: migrations.applied, tag: entry?.tag ?? '', when: migrations.when },
        secret_key: options.secretKey,
        tables,
        sequences,
      };
      return { manifest, rows };
    } catch (error) {
      await db.execute(sql`rollback`).catch(() => undefined);
      throw error;
    }
  });
}
