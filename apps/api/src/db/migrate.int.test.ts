import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { findMigrationsFolder, runMigrations } from '#src/db/migrate.js';
import { ADMIN_DATABASE_URL, databaseUrl, runPrefix } from '#test/db-urls.js';

/** The committed migrations give the same schema on embedded PGlite and on PostgreSQL. */

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

async function describeSchema(handle: DatabaseHandle) {
  const columns = rowsOf(
    await handle.db.execute(sql`select table_name, column_name, ordinal_position, data_type, udt_name, is_nullable, column_default,
      character_maximum_length, numeric_precision
      from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`),
  );
  const indexes = rowsOf(
    await handle.db.execute(
      sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`,
    ),
  );
  const constraints = rowsOf(
    await handle.db.execute(sql`select conrelid::regclass::text as table_name, conname, contype, pg_get_constraintdef(oid) as definition
      from pg_constraint where connamespace = 'public'::regnamespace and contype <> 'n' order by 1, 2`),
  );
  return { columns, indexes, constraints };
}

async function appliedMigrations(handle: DatabaseHandle): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`));
  return row?.n ?? -1;
}

const journalEntries = (): number =>
  (JSON.parse(readFileSync(join(findMigrationsFolder(), 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

describe('migrations on PGlite and PostgreSQL', () => {
  const databases = [`${runPrefix()}_mig_a`, `${runPrefix()}_mig_b`];
  let admin: pg.Client;
  let dataDir: string;
  const handles: DatabaseHandle[] = [];
  const open = async (options: Parameters<typeof openDatabase>[0]) => {
    const handle = await openDatabase(options);
    handles.push(handle);
    return handle;
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    for (const name of databases) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
    dataDir = await mkdtemp(join(tmpdir(), 'palisade-pglite-'));
  });

  afterAll(async () => {
    for (const handle of handles.splice(0)) await handle.close().catch(() => undefined);
    // Best effort: an autovacuum worker (a superuser process this role may not terminate) can be
    // connected for a moment; retry briefly, else the next run's global setup sweeps it away.
    for (const name of databases) {
      for (let attempt = 0; attempt < 10; attempt++) {
        const dropped = await admin.query(`drop database if exists ${name} with (force)`).then(
          () => true,
          () => false,
        );
        if (dropped) break;
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  // PGlite compiles its WebAssembly and runs initdb on first open: slow on a busy machine.
  it('produce identical schemas, and a second run changes nothing', { timeout: 120_000 }, async () => {
    const lite = await open({ dataDir });
    const postgres = await open({ databaseUrl: databaseUrl(databases[0] as string), dataDir: '/nonexistent', poolSize: 2 });
    expect(lite.kind).toBe('pglite');
    expect(postgres.kind).toBe('postgres');

    await runMigrations(lite);
    await runMigrations(postgres);
    const liteSchema = await describeSchema(lite);
    const pgSchema = await describeSchema(postgres);
    expect(liteSchema.columns.length).toBeGreaterThan(0);
    expect(liteSchema.indexes.map((i) => (i as { indexname: string }).indexname)).toContain('users_username_lower_key');
    expect(liteSchema).toEqual(pgSchema);
    expect(await appliedMigrations(lite)).toBe(journalEntries());
    expect(await appliedMigrations(postgres)).toBe(journalEntries());

    await runMigrations(lite);
    await runMigrations(postgres);
    expect(await describeSchema(lite)).toEqual(liteSchema);
    expect(await describeSchema(postgres)).toEqual(pgSchema);
    expect(await appliedMigrations(lite)).toBe(journalEntries());
    expect(await appliedMigrations(postgres)).toBe(journalEntries());
  });

  it('two processes migrating the same PostgreSQL database at once both succeed (advisory lock)', async () => {
    const url = databaseUrl(databases[1] as string);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => open({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 2 })));
    if (!a || !b || !c) throw new Error('open failed');
    await expect(Promise.all([runMigrations(a), runMigrations(b), runMigrations(c)])).resolves.toBeDefined();
    expect(await appliedMigrations(a)).toBe(journalEntries());
    const reference = await open({ databaseUrl: databaseUrl(databases[0] as string), dataDir: '/nonexistent', poolSize: 1 });
    await runMigrations(reference);
    expect(await describeSchema(a)).toEqual(await describeSchema(reference));
  });

  it('a start with nothing to migrate does not take the migrations lock (the other replicas stay ready)', async () => {
    // The lock held elsewhere (as a migrating process would): an up-to-date database must not wait for it,
    // since readiness reports "migrations: running" to the load balancer while anyone holds it.
    const url = databaseUrl(databases[1] as string);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
      const handle = await open({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 1 });
      const outcome = await Promise.race([
        runMigrations(handle).then(() => 'done'),
        new Promise((resolve) => setTimeout(() => resolve('waited for the lock'), 5000)),
      ]);
      expect(outcome).toBe('done');
      expect(await appliedMigrations(handle)).toBe(journalEntries());
    } finally {
      await holder.end();
    }
  });
});
