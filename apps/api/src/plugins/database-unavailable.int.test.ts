import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { parseEnv } from '#src/env.js';
import { isDatabaseUnavailable } from '#src/lib/db-errors.js';
import { ADMIN_PASSWORD, ensureWorkerDatabase, resetDatabase } from '#test/helpers.js';

/**
 * The database going away under a running API: requests that need it answer 503
 * `service.unavailable` with Retry-After (never a 500 or a hang), and the API serves again as soon
 * as the database is back. The database sits behind a TCP relay the test can cut: connections then
 * are accepted and never answered (a host that drops packets), the worst case for a pool.
 */
class CuttableRelay {
  readonly #sockets = new Set<Socket>();
  readonly #server: Server;
  cut = false;
  port = 0;

  constructor(target: { host: string; port: number }) {
    this.#server = createServer((client) => {
      this.#sockets.add(client);
      client.on('close', () => this.#sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.cut) return; // accepted, never answered
      const upstream = createConnection(target);
      this.#sockets.add(upstream);
      upstream.on('close', () => this.#sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  /** Cuts every open connection and answers no new one. */
  sever(): void {
    this.cut = true;
    for (const s of this.#sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.sever();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

let relay: CuttableRelay;
let database: DatabaseHandle;
let app: FastifyInstance;
let directUrl: string;

beforeAll(async () => {
  directUrl = await ensureWorkerDatabase();
  const direct = new URL(directUrl);
  relay = new CuttableRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
  await relay.listen();
  const relayed = new URL(directUrl);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(relay.port);
  database = await openDatabase({ databaseUrl: relayed.toString(), dataDir: '/nonexistent', poolSize: 3, connectTimeoutMs: 500 });
  await resetDatabase(database);
  const env = parseEnv({
    DATABASE_URL: relayed.toString(),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    UPDATE_CHECK_ENABLED: 'false',
  });
  app = await buildApp({ env, database, logger: false });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close().catch(() => undefined);
  await relay?.close();
});

describe('the database unreachable under a running API', () => {
  it('answers 503 service.unavailable with Retry-After while it is gone, and serves again when it is back', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } })).statusCode).toBe(200);

    relay.sever();
    for (const url of ['/api/v1/me', '/api/v1/user']) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ status: 503, code: 'service.unavailable' });
    }
    const signIn = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(signIn.statusCode).toBe(503);

    relay.cut = false;
    const back = await app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } });
    expect(back.statusCode).toBe(200);
  });
});

describe('isDatabaseUnavailable', () => {
  it('recognises what node-postgres raises for a refused connection, a connect timeout and a terminated session', async () => {
    const errorOf = async (fn: () => Promise<unknown>) =>
      fn().then(
        () => undefined,
        (e: unknown) => e,
      );
    // A port nobody listens on: the relay's own, closed after taking it.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = new pg.Pool({ host: '127.0.0.1', port: closedPort, connectionTimeoutMillis: 500 });
    expect(isDatabaseUnavailable(await errorOf(() => refused.query('select 1')))).toBe(true);
    await refused.end();

    relay.cut = true;
    const silent = new pg.Pool({ host: '127.0.0.1', port: relay.port, connectionTimeoutMillis: 300 });
    expect(isDatabaseUnavailable(await errorOf(() => silent.query('select 1')))).toBe(true);
    await silent.end();
    relay.cut = false;

    const client = new pg.Client({ connectionString: directUrl });
    await client.connect();
    client.on('error', () => undefined);
    const admin = new pg.Client({ connectionString: directUrl });
    await admin.connect();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
    expect(isDatabaseUnavailable(await errorOf(() => client.query('select 1')))).toBe(true);
    await admin.end();
    await client.end().catch(() => undefined);

    // Faults of the request or the code are not outages.
    const direct = new pg.Client({ connectionString: directUrl });
    await direct.connect();
    expect(isDatabaseUnavailable(await errorOf(() => direct.query('select * from no_such_table')))).toBe(false);
    expect(isDatabaseUnavailable(await errorOf(() => direct.query("select 'x'::int")))).toBe(false);
    await direct.end();
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
