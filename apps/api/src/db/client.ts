import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { OWNER_ONLY_UMASK, tightenTree } from '#src/lib/data-dir.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  kind: 'postgres' | 'pglite';
  db: Db;
  /** Runs `fn` on one dedicated connection (advisory locks are per connection). */
  withConnection<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /**
   * LISTEN on `channel` (a dedicated connection on PostgreSQL, reconnected with backoff; the
   * in-process channel on PGlite). `onReconnect` runs after a lost connection is back, since
   * notifications sent meanwhile are lost. Resolves to the function that stops listening.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool's connections (in use = total − idle) and callers waiting for one; read by /metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize?: number;
  /**
   * PostgreSQL only: how long opening a connection (or waiting for a free one in the pool) may take
   * before the query fails, so an unreachable server fails queries instead of hanging them
   * (DATABASE_CONNECT_TIMEOUT_SECONDS; DEFAULT_CONNECT_TIMEOUT_MS when unset).
   */
  connectTimeoutMs?: number;
}

/** DATABASE_CONNECT_TIMEOUT_SECONDS's default, in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  }
  return openPglite(options.dataDir);
}

function openPostgres(url: string, poolSize: number, connectTimeoutMs: number): DatabaseHandle {
  // Without a connect timeout, a server that drops packets or accepts and never answers would hold
  // every caller (and each pool slot it opened) forever; with it they fail and the slot is freed.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: connectTimeoutMs });
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
    listen: (channel, onNotify, onReconnect) => listenPostgres(url, connectTimeoutMs, channel, onNotify, onReconnect),
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

async function listenPostgres(
  url: string,
  connectTimeoutMs: number,
  channel: string,
  onNotify: (payload: string) => void,
  onReconnect?: () => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
    c.on('notification', (n) => n.channel === channel && onNotify(n.payload ?? ''));
    c.on('error', () => undefined);
    c.on('end', () => {
      if (stopped || client !== c) return;
      client = undefined;
      const again = () => {
        retry = undefined;
        connect().then(
          () => onReconnect?.(),
          () => {
            if (!stopped) retry = setTimeout(again, 1000);
          },
        );
      };
      retry = setTimeout(again, 200);
    });
    await c.connect();
    await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (stopped) await c.end();
    else client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

/**
 * Server settings of the embedded database: PGlite's defaults plus a 16 MB buffer cache (instead
 * of PostgreSQL's 128 MB), which keeps an idle API process small; larger installations run on
 * PostgreSQL.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Creates a new embedded database cluster in `dir` in a short-lived child process: initdb grows
 * the WebAssembly heap to several hundred MB that a process never gives back, so the API process
 * itself only ever opens an existing cluster.
 */
async function initPgliteCluster(dir: string): Promise<void> {
  const moduleUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const code = `const { PGlite } = await import(${JSON.stringify(moduleUrl)});
    const db = await PGlite.create(process.argv[1], { startParams: JSON.parse(process.argv[2]) });
    await db.close();`;
  await new Promise<void>((resolveInit, reject) => {
    execFile(
      process.execPath,
      [...WASM_FLAGS, '--input-type=module', '-e', code, dir, JSON.stringify(PGLITE_START_PARAMS)],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error) reject(new Error(`creating the embedded database in ${dir} failed: ${stderr.trim() || error.message}`));
        else resolveInit();
      },
    );
  });
}

/**
 * V8 compiles PGlite's WebAssembly (PostgreSQL, ~9 MB) with its baseline compiler only: the
 * optimising tier would add tens of MB of machine code to the idle process for no gain measurable
 * at this scale (figures in docs/benchmarks.md, "Startup"). Only WebAssembly is affected.
 */
const WASM_FLAGS = ['--liftoff-only'];

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  for (const flag of WASM_FLAGS) v8.setFlagsFromString(flag);
  const dir = resolve(dataDir, 'pgdata');
  // Owner-only files (lib/data-dir.ts): the cluster made by the child process (which inherits the
  // umask) and every file this process adds later (WAL segments, new relations).
  process.umask(OWNER_ONLY_UMASK);
  await mkdir(join(dir, '..'), { recursive: true, mode: 0o700 });
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    // Built aside and moved into place, so an interrupted first start leaves no half cluster.
    const staging = `${dir}.init-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await initPgliteCluster(staging);
    await tightenTree(staging);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  }
  const client = await PGlite.create(dir, { startParams: PGLITE_START_PARAMS });
  // PGlite sets some modes itself, past the umask (its WebAssembly file system applies its own
  // umask 022: pg_internal.init, rewritten at each start, comes out 0644). The 0700 directories
  // already keep other users out; this keeps the files owner-only too.
  await tightenTree(dir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    withConnection: (fn) => fn(db),
    listen: async (channel, onNotify) => {
      const stop = await client.listen(channel, onNotify);
      return () => stop();
    },
    close: () => client.close(),
  };
}
