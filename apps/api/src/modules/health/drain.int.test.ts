import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { RouteOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { DrainState, gracefulShutdown } from './drain.js';

const quiet = { info: () => {}, error: () => {} };

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end();
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('draining on SIGTERM (main.ts gracefulShutdown)', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close().catch(() => undefined);
  });

  it('answers readiness 503 "shutting_down" while liveness and every other route still answer, with Connection: close', async () => {
    const t = await createTestApp();
    apps.push(t);
    const cookie = await t.loginAdmin();
    expect((await t.request('GET', '/api/v1/health/ready')).json()).toEqual({ status: 'ready', database: 'ok', migrations: 'done' });
    expect((await t.request('GET', '/api/v1/me', { cookie })).headers.connection).not.toBe('close');

    t.app.drain.begin();
    const ready = await t.request('GET', '/api/v1/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not_ready', database: 'ok', migrations: 'done', reason: 'shutting_down' });
    expect((await t.request('GET', '/api/v1/health/live')).statusCode).toBe(200);
    const me = await t.request('GET', '/api/v1/me', { cookie });
    expect(me.statusCode).toBe(200);
    expect(me.headers.connection).toBe('close');
  });

  it('keeps serving through the drain, then refuses new connections, finishes the request in flight and resolves 0', async () => {
    // GET /health/live with `x-hold` waits in an onRequest hook until released: a request in flight.
    let arrived = false;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold = (route: RouteOptions) => {
      if (route.url !== '/api/v1/health/live' || route.method !== 'GET') return;
      route.onRequest = async (request) => {
        if (request.headers['x-hold'] === undefined) return;
        arrived = true;
        await gate;
      };
    };
    const t = await createTestApp({}, { onRoute: hold, jobs: true });
    apps.push(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const inFlight = get(port, '/api/v1/health/live', { 'x-hold': '1' });
    await waitFor(() => arrived, 'the held request to reach the server');

    const drainMs = 1500;
    const started = Date.now();
    const shutdown = gracefulShutdown({ drain: t.app.drain, drainMs, closeDeadlineMs: 20_000, close: () => t.close(), log: quiet });
    // During the drain: a new connection is served; readiness says why the process must be taken out.
    const during = await get(port, '/api/v1/health/ready');
    if (Date.now() - started < drainMs) expect(during).toEqual({ status: 503, connection: 'close' });
    expect((await get(port, '/api/v1/health/live')).status).toBe(200);

    // After the drain: no new connections, while the held request still runs.
    await waitFor(() => refused(port), 'the listener to close');
    expect(Date.now() - started).toBeGreaterThanOrEqual(drainMs);
    let settled = false;
    void shutdown.then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    release();
    expect((await inFlight).status).toBe(200);
    expect(await shutdown).toBe(0);
  });

  it('resolves 1 when closing outlasts the deadline or fails', async () => {
    const never = () => new Promise<void>(() => {});
    expect(await gracefulShutdown({ drain: new DrainState(), drainMs: 0, closeDeadlineMs: 50, close: never, log: quiet })).toBe(1);
    const failing = () => Promise.reject(new Error('pool would not close'));
    expect(await gracefulShutdown({ drain: new DrainState(), drainMs: 0, closeDeadlineMs: 1000, close: failing, log: quiet })).toBe(1);
  });
});
