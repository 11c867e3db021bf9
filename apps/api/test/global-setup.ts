import pg from 'pg';
import { openDatabase } from '#src/db/client.js';
import { runMigrations } from '#src/db/migrate.js';
import { ADMIN_DATABASE_URL, databaseUrl, runPrefix, templateDatabase } from './db-urls.js';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

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

/** Drops this run's databases, and those of earlier runs whose process is gone. */
async function dropDatabases(admin: pg.Client, ownOnly: boolean): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'palisade\\_test\\_%'`);
  for (const { datname } of rows) {
    const own = datname.startsWith(`${runPrefix()}_`);
    const pid = Number(/^palisade_test_(\d+)_/.exec(datname)?.[1] ?? Number.NaN);
    const stale = !ownOnly && Number.isInteger(pid) && !isAlive(pid);
    if (own || stale) await admin.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
  }
}

/** Migrates a template database once per run; each worker clones it (see helpers.ts). */
export async function setup(): Promise<void> {
  process.env.PALISADE_TEST_RUN ??= String(process.pid);
  const admin = await adminClient();
  try {
    await dropDatabases(admin, false);
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
}

export async function teardown(): Promise<void> {
  const admin = await adminClient();
  try {
    await dropDatabases(admin, true);
  } finally {
    await admin.end();
  }
}
