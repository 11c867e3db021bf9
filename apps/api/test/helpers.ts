import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp } from '#src/app.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { parseEnv } from '#src/env.js';
import { bootstrap } from '#src/modules/users/bootstrap.service.js';
import { ADMIN_DATABASE_URL, databaseUrl, TEMPLATE_DATABASE, workerDatabaseName } from './db-urls.js';

export const ADMIN_PASSWORD = 'Admin123!test';
export const USER_PASSWORD = 'Passw0rd!user';

let workerDbReady: Promise<string> | undefined;

/** This worker's own database, cloned from the migrated template once per worker. */
export function ensureWorkerDatabase(): Promise<string> {
  workerDbReady ??= (async () => {
    const name = workerDatabaseName();
    const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
    } finally {
      await admin.end();
    }
    return databaseUrl(name);
  })();
  return workerDbReady;
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** Signs in and returns the cookie header value for later requests. */
  login(username: string, password: string): Promise<string>;
  loginAdmin(): Promise<string>;
  /** Creates an active user (password USER_PASSWORD) and returns its session cookie. */
  createUser(username: string, extra?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Empties every table and re-runs first-start bootstrap (user `admin`, password ADMIN_PASSWORD). */
export async function resetDatabase(database: DatabaseHandle): Promise<void> {
  await database.db.execute(
    sql`truncate table users, groups, group_members, sessions, auth_failures, settings restart identity cascade`,
  );
  await bootstrap(database.db, ADMIN_PASSWORD);
}

export async function createTestApp(envOverrides: Record<string, string> = {}): Promise<TestApp> {
  const url = await ensureWorkerDatabase();
  const env = parseEnv({ DATABASE_URL: url, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', ...envOverrides });
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 5 });
  await resetDatabase(database);
  const app = await buildApp({ env, database, logger: false });
  await app.ready();

  const login = async (username: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username, password } });
    if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
    return cookieOf(res);
  };
  const loginAdmin = () => login('admin', ADMIN_PASSWORD);
  return {
    app,
    database,
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

export function cookieOf(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (!first) throw new Error('no session cookie set');
  return first.split(';')[0] ?? '';
}
