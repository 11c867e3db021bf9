import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { ADVISORY_LOCKS } from './advisory-locks.js';
import type { DatabaseHandle } from './client.js';

/** Any fixed number: every API process takes this lock before migrating, so only one migrates. */

export function findMigrationsFolder(): string {
  // Source tree (src/db) and the bundle (dist/) sit at different depths below apps/api.
  const candidates = ['../../drizzle', '../drizzle', './drizzle'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const found = candidates.find((dir) => existsSync(`${dir}/meta/_journal.json`));
  if (!found) throw new Error(`SQL migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

export async function runMigrations(handle: DatabaseHandle, migrationsFolder = findMigrationsFolder()): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder });
    return;
  }
  await handle.withConnection(async (db) => {
    await db.execute(sql`select pg_advisory_lock(${ADVISORY_LOCKS.migrations})`);
    try {
      await migratePg(db as never, { migrationsFolder });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${ADVISORY_LOCKS.migrations})`);
    }
  });
}
