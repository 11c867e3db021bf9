import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { parseEnv } from '#src/env.js';
import { queryRows } from '#src/db/rows.js';
import { childEnv } from '#test/child-env.js';
import { ADMIN_PASSWORD, ensureWorkerDatabase, resetDatabase } from '#test/helpers.js';
import { createLocation } from '#test/network-fixtures.js';
import { bodyOf, startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';

/**
 * Gateway notifications end to end: the real agent (apps/gateway, userspace WireGuard) against
 * API instances on one database, mails received by a real SMTP server. The threshold unit is one
 * second (an app option of tests) and the check runs every 200 ms. "No second mail" is asserted
 * after several checks of every running instance, never after a fixed sleep. Needs root and
 * wireguard-go (as the gateway system tests).
 */
const AGENT_BIN = fileURLToPath(new URL('../../../../gateway/bin/palisade-gateway.mjs', import.meta.url));
const canRun = process.getuid?.() === 0 && existsSync('/usr/bin/wireguard-go') && existsSync('/dev/net/tun');
const suffix = `${process.pid % 10_000}`;
const IFNAME = `pgn${suffix}`;

interface Api {
  app: FastifyInstance;
  port: number;
  admin: string;
  database: DatabaseHandle;
  checks: () => number;
  close(): Promise<void>;
}

const apis: Api[] = [];
let agent: ChildProcess | undefined;
let smtp: TestSmtpServer | undefined;

async function startApi(reset: boolean): Promise<Api> {
  const url = await ensureWorkerDatabase();
  const env = parseEnv({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '0',
    UPDATE_CHECK_ENABLED: 'false',
    // One key for every instance: they share the sealed location keys and queued mail.
    SECRET_KEY: 'k'.repeat(40),
  });
  const database: DatabaseHandle = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 5 });
  if (reset) await resetDatabase(database);
  let checks = 0;
  const app = await buildApp({
    env,
    database,
    logger: false,
    grpc: { port: 0, host: '127.0.0.1' },
    jobs: true,
    gatewayNotifications: { thresholdUnitMs: 1000, intervalMs: 200, onCheck: () => (checks += 1) },
  });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
  const api: Api = {
    app,
    port: app.gatewayControl?.port ?? 0,
    admin: String(login.headers['set-cookie']).split(';')[0] ?? '',
    database,
    checks: () => checks,
    async close() {
      apis.splice(apis.indexOf(api), 1);
      await app.close();
      await database.close();
    },
  };
  apis.push(api);
  return api;
}

async function waitUntil(what: string, probe: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until every running instance has checked `n` more times. */
async function afterChecks(n: number): Promise<void> {
  const targets = apis.map((a) => [a, a.checks() + n] as const);
  await waitUntil(`${n} more checks`, () => targets.every(([a, target]) => a.checks() >= target));
}

function startAgent(api: Api, token: string): ChildProcess {
  const child = spawn(process.execPath, [AGENT_BIN], {
    env: childEnv({
      GATEWAY_GRPC_URL: `http://127.0.0.1:${api.port}`,
      GATEWAY_TOKEN: token,
      GATEWAY_IFNAME: IFNAME,
      GATEWAY_USERSPACE: 'always',
      GATEWAY_HEALTH_PORT: '0',
      GATEWAY_STATS_INTERVAL: '3600',
    }),
    stdio: 'ignore',
  });
  agent = child;
  return child;
}

async function stopAgent(): Promise<void> {
  const child = agent;
  agent = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Exactly `n` mails queued (sent or not: a mail queued twice fails here before it is delivered) and `n` received. */
async function expectMails(n: number): Promise<void> {
  const api = apis[0];
  if (!api) throw new Error('no API instance');
  const [row] = await queryRows<{ count: number }>(api.database.db, sql`select count(*)::int as count from mail_outbox`);
  expect(row?.count).toBe(n);
  expect(smtp?.received).toHaveLength(n);
}

async function isConnected(api: Api, locationId: number): Promise<boolean> {
  const res = await api.app.inject({ method: 'GET', url: `/api/v1/network/${locationId}/gateways`, headers: { cookie: api.admin } });
  const rows = res.json() as { connected: boolean }[];
  return rows.length === 1 && rows[0]?.connected === true;
}

afterAll(async () => {
  await stopAgent();
  for (const api of [...apis]) await api.close();
  await smtp?.close();
  // The agent leaves its interface up (fail-open); removing it ends the wireguard-go it started.
  if (canRun) {
    try {
      execFileSync('ip', ['link', 'del', IFNAME], { stdio: 'ignore' });
    } catch {
      // not created
    }
  }
});

describe.skipIf(!canRun)('gateway notifications with a real agent', () => {
  it('mails one disconnect and one reconnect per disconnection, across a restart and two instances; a flap mails nothing', async () => {
    smtp = await startSmtpServer();
    const first = await startApi(true);
    await first.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings',
      headers: { cookie: first.admin },
      payload: { smtp_server: '127.0.0.1', smtp_port: smtp.port, smtp_encryption: 'none', smtp_sender: 'vpn@example.com' },
    });
    const enabled = await first.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings',
      headers: { cookie: first.admin },
      payload: {
        gateway_disconnect_notifications_enabled: true,
        gateway_inactivity_threshold: 2,
        gateway_reconnect_notifications_enabled: true,
      },
    });
    expect(enabled.statusCode).toBe(200);
    // The administrator reads mail in Polish.
    await first.database.db.execute(sql`update users set email = 'ops@example.com', language = 'pl' where username = 'admin'`);
    const octet = 100 + (process.pid % 100);
    const location = await createLocation(first.app, first.admin, {
      name: 'Warsaw office',
      address: [`10.213.${octet}.1/24`],
      allowed_ips: [`10.213.${octet}.0/24`],
      dns: [],
      port: 40_000 + (process.pid % 20_000),
    });
    const token = (
      await first.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/token`, headers: { cookie: first.admin } })
    ).json().token as string;

    startAgent(first, token);
    await waitUntil('the agent to connect', () => isConnected(first, location.id));

    // Disconnected longer than the threshold: one mail to the admin, in Polish, about this gateway.
    await stopAgent();
    const [disconnect] = await smtp.waitFor(1, 60_000);
    expect(disconnect?.to).toEqual(['ops@example.com']);
    const text = bodyOf(disconnect?.raw ?? '');
    expect(text).toContain('lokalizacji Warsaw office jest rozłączona od');
    expect(text).toContain(`/locations/${location.id}/gateway`);
    await afterChecks(5);
    await expectMails(1);

    // The API restarts while the gateway is still down: the state is in the database, no new mail.
    await first.close();
    const second = await startApi(false);
    const third = await startApi(false);
    await afterChecks(5);
    await expectMails(1);

    // Back (through the second instance): one reconnect mail, though two instances check.
    startAgent(second, token);
    const [, reconnect] = await smtp.waitFor(2, 60_000);
    expect(bodyOf(reconnect?.raw ?? '')).toContain('jest znów połączona od');
    await afterChecks(5);
    await expectMails(2);

    // A second disconnection with two instances checking: one more disconnect mail, then one reconnect.
    await stopAgent();
    const mails = await smtp.waitFor(3, 60_000);
    expect(bodyOf(mails[2]?.raw ?? '')).toContain('jest rozłączona od');
    await afterChecks(5);
    await expectMails(3);
    startAgent(third, token);
    await smtp.waitFor(4, 60_000);
    await afterChecks(5);
    await expectMails(4);
    expect(bodyOf(smtp.received[3]?.raw ?? '')).toContain('jest znów połączona od');

    // A flap shorter than the threshold mails nothing.
    await second.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings',
      headers: { cookie: second.admin },
      payload: { gateway_inactivity_threshold: 120 },
    });
    await stopAgent();
    await waitUntil('the gateway to show disconnected', async () => !(await isConnected(second, location.id)));
    startAgent(second, token);
    await waitUntil('the agent to connect again', () => isConnected(second, location.id));
    await afterChecks(5);
    await expectMails(4);
  }, 300_000);
});
