import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  kind: 'postgres' | 'pglite';
  db: Db;
  /** Runs `fn` on one dedicated connection (advisory locks are per connection). */
  withConnection<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir);
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its server emits 'error'; without a listener Node would crash.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    async withConnection(fn) {
      const client = await pool.connect();
      try {
        return await fn(drizzlePg(client, { schema }) as unknown as Db);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const dir = resolve(dataDir, 'pgdata');
  await mkdir(join(dir, '..'), { recursive: true });
  const client = await PGlite.create(dir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    withConnection: (fn) => fn(db),
    close: () => client.close(),
  };
}
