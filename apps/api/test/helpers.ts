import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { type BuildAppOptions, buildApp } from '#src/app.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { parseEnv } from '#src/env.js';
import { bootstrap } from '#src/modules/users/bootstrap.service.js';
import {
  ADMIN_DATABASE_URL,
  databaseUrl,
  dropTestDatabase,
  templateDatabase,
  workerDatabaseName,
  workerDatabasePrefix,
} from './db-urls.js';
import { TEST_LICENCE_OPTIONS } from './support/licence.js';

export const ADMIN_PASSWORD = 'Admin123!test';
export const USER_PASSWORD = 'Passw0rd!user';

let workerDbReady: Promise<string> | undefined;

/**
 * This test-file process's own database, cloned from the migrated template. A new name each time
 * (nothing to drop first, so nothing can block the start); the databases of this pool slot's
 * earlier files are dropped best effort, and the run's teardown sweeps what is left.
 */
export function ensureWorkerDatabase(): Promise<string> {
  workerDbReady ??= (async () => {
    const name = workerDatabaseName();
    const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        'select datname from pg_database where starts_with(datname, $1) and datname <> $2',
        [workerDatabasePrefix(), name],
      );
      for (const { datname } of rows) await dropTestDatabase(admin, datname, 2);
      await admin.query(`create database ${name} template ${templateDatabase()}`);
    } finally {
      await admin.end();
    }
    return databaseUrl(name);
  })();
  return workerDbReady;
}

export interface RequestOptions {
  cookie?: string | undefined;
  payload?: unknown;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** `app.inject` with the usual options spelled shortly. */
  request(method: HttpMethod, url: string, options?: RequestOptions): Promise<LightMyRequestResponse>;
  /** Creates a user through the API as the given admin and returns its User body. */
  newUser(adminCookie: string, username: string, extra?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Signs in and returns the cookie header value for later requests. */
  login(username: string, password: string): Promise<string>;
  loginAdmin(): Promise<string>;
  /** Creates an active user (password USER_PASSWORD) and returns its session cookie. */
  createUser(username: string, extra?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * `url` with `query` appended, every own key sent as it is. (light-my-request's `query` option
 * assigns the keys onto an object, so a key such as `__proto__` never reached the server.)
 */
function withQuery(url: string, query: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  const search = params.toString();
  return search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

let deleteScript: Promise<string> | undefined;

/**
 * `delete from` every public table, referencing tables first (computed from the foreign keys, so
 * tables added by later migrations are covered too). DELETE is much faster than TRUNCATE here.
 */
function deleteAllScript(database: DatabaseHandle): Promise<string> {
  deleteScript ??= (async () => {
    const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
    const tables = rows<{ name: string }>(
      await database.db.execute(sql`select tablename as name from pg_tables where schemaname = 'public'`),
    ).map((r) => r.name);
    const edges = rows<{ child: string; parent: string }>(
      await database.db.execute(sql`select c.relname as child, p.relname as parent from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        where k.contype = 'f' and k.connamespace = 'public'::regnamespace and k.conrelid <> k.confrelid`),
    );
    const order: string[] = [];
    const left = new Set(tables);
    while (left.size > 0) {
      const free = [...left].filter((t) => !edges.some((e) => e.parent === t && e.child !== t && left.has(e.child)));
      const next = free.length > 0 ? free : [...left];
      for (const t of next) {
        order.push(t);
        left.delete(t);
      }
    }
    return order.map((t) => `delete from "${t}"`).join('; ');
  })();
  return deleteScript;
}

/** Empties every table, as before the first start. */
export async function emptyDatabase(database: DatabaseHandle): Promise<void> {
  await database.db.execute(sql.raw(await deleteAllScript(database)));
}

/** Empties every table and re-runs first-start bootstrap (user `admin`, password ADMIN_PASSWORD). */
export async function resetDatabase(database: DatabaseHandle): Promise<void> {
  await emptyDatabase(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
}

export async function createTestApp(
  envOverrides: Record<string, string> = {},
  buildOptions: Pick<BuildAppOptions, 'webDist' | 'logStream' | 'onRoute' | 'logger' | 'jobs' | 'directorySync' | 'licence'> = {},
): Promise<TestApp> {
  const url = await ensureWorkerDatabase();
  // Update checks off unless a test turns them on: no test reads the project's real release feed.
  const env = parseEnv({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    UPDATE_CHECK_ENABLED: 'false',
    ...envOverrides,
  });
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 5 });
  await resetDatabase(database);
  const app = await buildApp({ env, database, logger: false, licence: TEST_LICENCE_OPTIONS, ...buildOptions });
  await app.ready();

  const login = async (username: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username, password } });
    if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
    return cookieOf(res);
  };
  const loginAdmin = () => login('admin', ADMIN_PASSWORD);
  const request = (method: HttpMethod, url: string, options: RequestOptions = {}) =>
    app.inject({
      method,
      url: options.query ? withQuery(url, options.query) : url,
      ...(options.payload !== undefined ? { payload: options.payload as string } : {}),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    });
  return {
    app,
    database,
    request,
    async newUser(adminCookie, username, extra = {}) {
      const res = await request('POST', '/api/v1/user', { cookie: adminCookie, payload: userBody(username, extra) });
      if (res.statusCode !== 201) throw new Error(`create ${username} failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    login,
    loginAdmin,
    async createUser(username, extra = {}) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/user',
        headers: { cookie: await loginAdmin() },
        payload: {
          username,
          first_name: 'Test',
          last_name: username,
          email: `${username}@example.com`,
          password: USER_PASSWORD,
          ...extra,
        },
      });
      if (res.statusCode !== 201) throw new Error(`create ${username} failed: ${res.statusCode} ${res.body}`);
      return login(username, USER_PASSWORD);
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** A valid POST /user body (password USER_PASSWORD) with `extra` merged in. */
export function userBody(username: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    username,
    first_name: 'Test',
    last_name: username,
    email: `${username}@example.com`,
    password: USER_PASSWORD,
    ...extra,
  };
}

/** A PUT /user/{username} body built from a User response, with `changes` applied. */
export function updateBody(user: Record<string, unknown>, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    is_active: user.is_active,
    groups: user.groups,
  };
  if (user.phone !== undefined) body.phone = user.phone;
  return { ...body, ...changes };
}

/** The rows of the identity, location and device tables as one string: equal means nothing was written. */
export async function snapshot(database: DatabaseHandle): Promise<string> {
  const tables = [
    'users',
    'groups',
    'group_members',
    'settings',
    'locations',
    'location_groups',
    'devices',
    'device_ips',
    'ip_allocation_cursors',
    'ip_free_holes',
    'cli_tokens',
    'activity_log_streams',
    'event_consumers',
    'webhooks',
    'webhook_deliveries',
    'oauth_clients',
    'acl_rules',
    'acl_aliases',
  ] as const;
  const parts: unknown[] = [];
  for (const table of tables) {
    const result = await database.db.execute(sql.raw(`select * from ${table} order by 1, 2`));
    parts.push(table, (result as unknown as { rows: unknown[] }).rows);
  }
  return JSON.stringify(parts);
}

/** Problem+json responses: status, content type and the stable code. */
export function problemOf(res: LightMyRequestResponse): { status: number; code: string; body: Record<string, unknown> } {
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) throw new Error(`not a problem response: ${res.statusCode} ${type} ${res.body}`);
  const body = res.json();
  return { status: res.statusCode, code: body.code, body };
}

export function cookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (!first) throw new Error('no session cookie set');
  return first.split(';')[0] ?? '';
}
