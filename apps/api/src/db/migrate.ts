import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { ADVISORY_LOCKS } from './advisory-locks.js';
import type { DatabaseHandle } from './client.js';
import { queryRows } from './rows.js';

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
  // A start with nothing to migrate (a restart, another replica) takes no lock: the migrations
  // lock is what the other processes' readiness reports as "migrations: running", so taking it
  // needlessly would take every replica out of a load balancer at each restart of one of them.
  if (!(await hasPendingMigrations(handle, migrationsFolder))) return;
  await handle.withConnection(async (db) => {
    await db.execute(sql`select pg_advisory_lock(${ADVISORY_LOCKS.migrations})`);
    try {
      await migratePg(db as never, { migrationsFolder });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${ADVISORY_LOCKS.migrations})`);
    }
  });
}

/**
 * Whether some migration of the folder is newer than the last one this PostgreSQL database
 * recorded (drizzle's own rule: it applies the files whose timestamp is above the last applied
 * one's). Read without the lock; when it says yes, the migrator checks again under the lock.
 */
async function hasPendingMigrations(handle: DatabaseHandle, migrationsFolder: string): Promise<boolean> {
  const newest = Math.max(0, ...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
  // A database never migrated has no such table: the query fails, and everything is pending.
  const [row] = await queryRows<{ applied: string | null }>(
    handle.db,
    sql`select max(created_at)::text as applied from drizzle.__drizzle_migrations`,
  ).catch(() => [{ applied: null }]);
  return row?.applied == null || Number(row.applied) < newest;
}
