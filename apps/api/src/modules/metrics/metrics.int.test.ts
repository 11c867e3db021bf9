import { createServer, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.js';
import { openDatabase } from '#src/db/client.js';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import { parseEnv } from '#src/env.js';
import { ADMIN_PASSWORD, createTestApp, ensureWorkerDatabase, problemOf, type TestApp } from '#test/helpers.js';
import { READINESS_TIMEOUT_MS } from '#src/modules/health/health.routes.js';
import { API_METRIC_NAMES } from './api-metrics.js';
import { parseExposition, type Sample } from './exposition.js';

const TOKEN = 'metrics-test-token-0123456789';
const SECRET_PASSWORD = 'Typed-Secret-Password-77';
const auth = { authorization: `Bearer ${TOKEN}` };

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const hit = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return hit.reduce((sum, s) => sum + s.value, 0);
}

/**
 * A "PostgreSQL server" that accepts connections and never answers (a hung server, or a proxy
 * whose backend is gone): counts the connections it got and those the client gave up on.
 */
async function silentServer(): Promise<{ port: number; accepted: () => number; open: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    // Reads (and ignores) the startup message, so the client's close is seen.
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    accepted: () => accepted,
    open: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('GET /metrics and the health probes', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.request('GET', '/metrics', { headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    return parseExposition(res.body);
  };

  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  it('answers 401 without the token or with a wrong one, and 404 when METRICS_TOKEN is unset', async () => {
    expect(problemOf(await t.request('GET', '/metrics')).code).toBe('auth.unauthenticated');
    const wrong = await t.request('GET', '/metrics', { headers: { authorization: 'Bearer not-the-metrics-token' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('palisade_');
    // A session cookie is not a metrics credential either.
    expect((await t.request('GET', '/metrics', { cookie: await t.loginAdmin() })).statusCode).toBe(401);
    const off = await createTestApp();
    try {
      expect(problemOf(await off.request('GET', '/metrics', { headers: auth })).code).toBe('request.not_found');
    } finally {
      await off.close();
    }
  });

  it('registers every documented metric, in a text Prometheus parses', async () => {
    const text = (await t.request('GET', '/metrics', { headers: auth })).body;
    const samples = parseExposition(text);
    for (const name of API_METRIC_NAMES) expect(text, name).toContain(`# TYPE ${name} `);
    // PostgreSQL: the pool's connections are reported.
    expect(samples.some((s) => s.name === 'palisade_db_pool_connections' && s.labels.state === 'idle')).toBe(true);
    expect(samples.some((s) => s.name === 'palisade_db_pool_waiting')).toBe(true);
    expect(samples.some((s) => s.name === 'palisade_event_outbox_lag')).toBe(true);
  });

  it('counts requests by route template and status, never by the raw URL', async () => {
    const admin = await t.loginAdmin();
    const before = await scrape();
    const route = { method: 'GET', route: '/api/v1/user/:username', status: '200' };
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/api/v1/user/admin', { cookie: admin })).statusCode).toBe(200);
    expect((await t.request('GET', `/api/v1/no-such-${SECRET_PASSWORD}`)).statusCode).toBe(404);
    const after = await scrape();
    expect(value(after, 'palisade_http_requests_total', route) - value(before, 'palisade_http_requests_total', route)).toBe(3);
    expect(value(after, 'palisade_http_request_duration_seconds_count', route)).toBeGreaterThanOrEqual(3);
    expect(value(after, 'palisade_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    const routes = new Set(after.filter((s) => s.name === 'palisade_http_requests_total').map((s) => s.labels.route));
    expect([...routes].filter((r) => r?.includes('/admin'))).toEqual([]);
  });

  it('counts sign-in successes, failures and lockouts, with no user input in any label', async () => {
    const before = await scrape();
    expect((await t.request('POST', '/api/v1/auth', { payload: { username: 'admin', password: ADMIN_PASSWORD } })).statusCode).toBe(200);
    const ip = '203.0.113.77';
    let locked = false;
    for (let i = 0; i < 8 && !locked; i++) {
      const res = await t.request('POST', '/api/v1/auth', {
        payload: { username: 'metrics-ghost', password: SECRET_PASSWORD },
        remoteAddress: ip,
      });
      locked = res.statusCode === 429;
    }
    expect(locked).toBe(true);
    const text = (await t.request('GET', '/metrics', { headers: auth })).body;
    const after = parseExposition(text);
    const delta = (name: string, labels: Record<string, string> = {}) => value(after, name, labels) - value(before, name, labels);
    expect(delta('palisade_logins_total', { result: 'success' })).toBe(1);
    expect(delta('palisade_logins_total', { result: 'failure' })).toBeGreaterThanOrEqual(5);
    expect(delta('palisade_logins_total', { result: 'locked_out' })).toBe(1);
    expect(delta('palisade_login_lockouts_total')).toBe(1);
    expect(text).not.toContain(SECRET_PASSWORD);
    expect(text).not.toContain('metrics-ghost');
    expect(text).not.toContain(ip);
    expect(text).not.toContain(TOKEN);
    const labelValues = after.flatMap((s) => Object.values(s.labels));
    expect(labelValues.filter((v) => /admin|ghost|@/.test(v))).toEqual([]);
  });

  it('live answers 200 and ready answers 200 with a reachable, migrated database', async () => {
    expect((await t.request('GET', '/api/v1/health/live')).json()).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/api/v1/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'done' });
    expect((await t.request('GET', '/api/v1/health')).json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('ready answers 503 while a process holds the migrations lock on this database', async () => {
    const client = new pg.Client({ connectionString: await ensureWorkerDatabase() });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
      const res = await t.request('GET', '/api/v1/health/ready');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not_ready', database: 'ok', migrations: 'running' });
      expect((await t.request('GET', '/api/v1/health/live')).statusCode).toBe(200);
      await client.query('select pg_advisory_unlock($1)', [ADVISORY_LOCKS.migrations]);
      expect((await t.request('GET', '/api/v1/health/ready')).statusCode).toBe(200);
    } finally {
      await client.end();
    }
  });

  it('ready answers 503 (and live 200, /metrics still scrapes) when the pool points at a closed database', async () => {
    const port = await closedPort();
    const url = `postgres://palisade:palisade@127.0.0.1:${port}/palisade_closed`;
    const env = parseEnv({
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '0',
      UPDATE_CHECK_ENABLED: 'false',
      METRICS_TOKEN: TOKEN,
    });
    const dead = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 2 });
    // No LISTEN connection: the app must start without a database, as a replica whose database went away.
    const app = await buildApp({ env, database: { ...dead, listen: undefined }, logger: false });
    try {
      const ready = await app.inject({ method: 'GET', url: '/api/v1/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not_ready', database: 'unreachable', migrations: 'unknown' });
      expect((await app.inject({ method: 'GET', url: '/api/v1/health/live' })).statusCode).toBe(200);
      const metrics = await app.inject({ method: 'GET', url: '/metrics', headers: auth });
      expect(metrics.statusCode).toBe(200);
      expect(parseExposition(metrics.body).some((s) => s.name === 'palisade_http_requests_total')).toBe(true);
    } finally {
      await app.close();
      await dead.close();
    }
  });

  it('ready answers 503 within its deadline when the server accepts and never answers, and queries fail after the connect timeout', async () => {
    const silent = await silentServer();
    const url = `postgres://palisade:palisade@127.0.0.1:${silent.port}/palisade_hung`;
    const env = parseEnv({ DATABASE_URL: url, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', UPDATE_CHECK_ENABLED: 'false' });
    const hung = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 2, connectTimeoutMs: 500 });
    const app = await buildApp({ env, database: { ...hung, listen: undefined }, logger: false });
    try {
      // More probes than pool slots: without a connect timeout the first two would hold both
      // slots forever and every later query would queue behind them.
      for (let i = 0; i < 3; i++) {
        const began = Date.now();
        const ready = await app.inject({ method: 'GET', url: '/api/v1/health/ready' });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toMatchObject({ status: 'not_ready', database: 'unreachable', migrations: 'unknown' });
        // Generous bound (a loaded host): it answers, within seconds, never hangs.
        expect(Date.now() - began).toBeLessThan(READINESS_TIMEOUT_MS + 8_000);
      }
      expect(silent.accepted()).toBeGreaterThanOrEqual(1);
      // The pool gave up on the hung connections: a query now fails instead of waiting forever.
      const failure = await hung.db.execute(sql`select 1`).then(
        () => 'answered',
        (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
      );
      expect(failure).toMatch(/timeout/i);
      const deadline = Date.now() + 15_000;
      while (silent.open() > 0 || (hung.poolStats?.().total ?? 0) > 0) {
        if (Date.now() > deadline)
          throw new Error(`hung connections not closed: ${silent.open()} open, pool ${JSON.stringify(hung.poolStats?.())}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(hung.poolStats?.().waiting).toBe(0);
    } finally {
      await app.close();
      await hung.close().catch(() => undefined);
      await silent.close();
    }
  });
});
