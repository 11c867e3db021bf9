import pg from 'pg';
import { openDatabase } from '#src/db/client.js';
import { runMigrations } from '#src/db/migrate.js';
import { ADMIN_DATABASE_URL, databaseUrl, TEMPLATE_DATABASE } from './db-urls.js';

/** Migrates a template database once; each worker clones it (see helpers.ts). */
export async function setup(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `Integration tests need PostgreSQL at ${ADMIN_DATABASE_URL} (run scripts/ensure-postgres.sh, or set TEST_DATABASE_URL): ${String(error)}`,
    );
  }
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ databaseUrl: databaseUrl(TEMPLATE_DATABASE), dataDir: '/nonexistent' });
  try {
    await runMigrations(handle);
  } finally {
    await handle.close();
  }
}
