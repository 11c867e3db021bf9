import pg from 'pg';
import { openDatabase } from '#src/db/client.js';
import { runMigrations } from '#src/db/migrate.js';
import { ADMIN_DATABASE_URL, databaseUrl, dropTestDatabase, newRunId, runIsOver, runPrefix, templateDatabase } from './db-urls.js';

async function adminClient(): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `Integration tests need PostgreSQL at ${ADMIN_DATABASE_URL} (run scripts/ensure-postgres.sh, or set TEST_DATABASE_URL): ${String(error)}`,
    );
  }
  return admin;
}

/**
 * Drops this run's databases, or (at the start) those of earlier runs that have ended, e.g. after
 * an interrupted run. Best effort: what cannot be dropped now is left for a later sweep.
 */
async function dropDatabases(admin: pg.Client, which: 'own' | 'ended'): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'palisade\\_test\\_%'`);
  for (const { datname } of rows) {
    const drop = which === 'own' ? datname.startsWith(`${runPrefix()}_`) : runIsOver(datname);
    if (drop) await dropTestDatabase(admin, datname, which === 'own' ? 10 : 3);
  }
}

/** Migrates a template database once per run; each test file's process clones it (see helpers.ts). */
export async function setup(): Promise<void> {
  process.env.PALISADE_TEST_RUN ??= newRunId();
  const admin = await adminClient();
  try {
    await dropDatabases(admin, 'ended');
    await admin.query(`create database ${templateDatabase()}`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ databaseUrl: databaseUrl(templateDatabase()), dataDir: '/nonexistent' });
  try {
    await runMigrations(handle);
  } finally {
    await handle.close();
  }
  // Nothing connects to the template from here on, and autovacuum leaves such a database alone:
  // cloning it never waits for (or fails on) a worker vacuuming it.
  const owner = await adminClient();
  try {
    await owner.query(`alter database ${templateDatabase()} with allow_connections false`);
  } finally {
    await owner.end();
  }
}

export async function teardown(): Promise<void> {
  const admin = await adminClient();
  try {
    await dropDatabases(admin, 'own');
  } finally {
    await admin.end();
  }
}
