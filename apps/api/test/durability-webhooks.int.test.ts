import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReceiver, type TestReceiver, until } from '#src/modules/webhooks/test-receiver.js';
import { ensureWorkerDatabase } from './helpers.js';

/**
 * ADR-005 / issue §5: an API process killed with SIGKILL after a change committed and before its
 * webhook went out delivers it after a restart, each `webhook-id` exactly once (a duplicate only
 * with the same id). The real `src/main.ts` runs as a child process on its own database.
 */
const ADMIN_PASSWORD = 'Admin123!durable';
const SECRET_KEY = 'durability-test-secret-key-0123456789abcdef';
const TOKEN = `whsec_${Buffer.from('durability webhook signing key!!').toString('base64')}`;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

interface Api {
  url: string;
  kill(): Promise<void>;
}

let databaseUrl: string;
let sql: pg.Client;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  databaseUrl = await ensureWorkerDatabase();
  sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  // A fresh database: the child runs migrations (already applied) and creates `admin`.
  for (const table of [
    'webhook_attempts',
    'webhook_deliveries',
    'webhooks',
    'event_consumers',
    'events',
    'sessions',
    'group_members',
    'users',
  ]) {
    await sql.query(`delete from ${table}`).catch(() => undefined);
  }
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await sql?.end();
});

async function startApi(): Promise<Api> {
  const [port, grpcPort] = [await freePort(), await freePort()];
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      SECRET_KEY,
      HOST: '127.0.0.1',
      PORT: String(port),
      GRPC_PORT: String(grpcPort),
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const kill = () =>
    new Promise<void>((resolve) => {
      children.delete(child);
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`the API exited ${child.exitCode}: ${output}`);
      return (await fetch(`${url}/api/v1/health`).catch(() => undefined))?.ok === true;
    },
    90_000,
    `the API on :${port}`,
  );
  return { url, kill };
}

async function login(api: Api): Promise<string> {
  const res = await fetch(`${api.url}/api/v1/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function post(api: Api, cookie: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
}

const createUser = async (api: Api, cookie: string, username: string) => {
  const res = await post(api, cookie, '/api/v1/user', {
    username,
    first_name: 'Dur',
    last_name: 'Able',
    email: `${username}@example.com`,
  });
  expect(res.status, await res.clone().text()).toBe(201);
};

const count = async (query: string): Promise<number> => Number((await sql.query(query)).rows[0]?.n ?? 0);

it('a child API killed with SIGKILL after the commit delivers after restart, each webhook-id once', { timeout: 240_000 }, async () => {
  let receiver: TestReceiver = await startReceiver();
  const port = receiver.port;
  const received = () => receiver.received;
  const all: TestReceiver['received'] = [];
  const closeReceiver = async () => {
    all.push(...receiver.received);
    await receiver.close();
  };

  // 1. Killed before the fan-out handed the event on: a transaction held open here keeps the
  //    committed event below the consumers' horizon (ADR-005), so nothing is queued before the kill.
  let api = await startApi();
  await until(async () => (await count(`select count(*) as n from event_consumers where name = 'webhooks'`)) === 1, 30_000, 'the consumer');
  let cookie = await login(api);
  const allow = await fetch(`${api.url}/api/v1/settings`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ egress_allow_cidrs: ['127.0.0.0/8'] }),
  });
  expect(allow.status).toBe(200);
  const hook = await post(api, cookie, '/api/v1/webhook', { url: receiver.url, token: TOKEN, triggers: ['user.created'] });
  expect(hook.status, await hook.clone().text()).toBe(201);

  const blocker = new pg.Client({ connectionString: databaseUrl });
  await blocker.connect();
  await blocker.query('begin');
  await blocker.query('select pg_current_xact_id()');
  await createUser(api, cookie, 'durable1');
  expect(await count(`select count(*) as n from events where type = 'user.created' and object_name = 'durable1'`)).toBe(1);
  expect(await count('select count(*) as n from webhook_deliveries')).toBe(0);
  await api.kill();
  await blocker.query('commit');
  await blocker.end();
  expect(received()).toHaveLength(0);

  api = await startApi();
  await until(() => received().length >= 1, 30_000, 'the first event after restart');

  // 2. Killed after a failed attempt, with the retry pending: the receiver is down for now.
  await closeReceiver();
  cookie = await login(api);
  await createUser(api, cookie, 'durable2');
  await until(
    async () => (await count(`select count(*) as n from webhook_attempts where outcome = 'retrying'`)) >= 1,
    30_000,
    'the refused attempt',
  );
  await api.kill();
  api = await startApi();
  receiver = await startReceiver(port);
  await until(() => received().some((r) => JSON.parse(r.body).data?.user?.username === 'durable2'), 60_000, 'the retried event');
  await until(
    async () => (await count(`select count(*) as n from webhook_deliveries where status = 'delivered'`)) === 2,
    10_000,
    'both delivered',
  );
  await api.kill();
  await closeReceiver();

  const verifier = new Webhook(TOKEN);
  const bodies = all.map(
    (r) => verifier.verify(r.body, r.headers as Record<string, string>) as { id: number; data: { user: { username: string } } },
  );
  // Every webhook-id names one event; the same id always carries the same event.
  const byId = new Map<string, Set<string>>();
  all.forEach((r, i) => {
    const id = String(r.headers['webhook-id']);
    byId.set(id, (byId.get(id) ?? new Set()).add(bodies[i]?.data.user.username ?? ''));
  });
  expect([...byId.values()].map((names) => [...names])).toEqual([['durable1'], ['durable2']]);
  expect(byId.size).toBe(2);
  // Exactly once here: nothing was in flight at either kill.
  expect(all).toHaveLength(2);
});
