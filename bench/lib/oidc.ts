/**
 * Shared parts of the OpenID provider benches (oidc-refresh.ts, oidc-token-burst.ts): a bench
 * database with one confidential app, the real API, refresh tokens seeded through the provider's
 * own models, the same provider configuration on oidc-provider's in-memory adapter, and an
 * out-of-process load generator that follows refresh-token rotation (each grant's answer carries
 * the token the next request of that chain uses, so autocannon's fixed bodies cannot drive it).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg, { type Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../../apps/api/src/app.ts';
import { openDatabase } from '../../apps/api/src/db/client.ts';
import { runMigrations } from '../../apps/api/src/db/migrate.ts';
import { oauthClients } from '../../apps/api/src/db/schema/index.ts';
import { parseEnv } from '../../apps/api/src/env.ts';
import { SecretBox } from '../../apps/api/src/lib/crypto.ts';
import { findClientMetadata } from '../../apps/api/src/oidc/clients.ts';
import { createProvider } from '../../apps/api/src/oidc/provider.ts';
import { loadProviderJwks } from '../../apps/api/src/oidc/signing-keys.ts';
import { bootstrap } from '../../apps/api/src/modules/users/bootstrap.service.ts';
import { BENCH_DIR, freePort, percentile, recreateDatabase, round } from './common.ts';

export const ADMIN_PASSWORD = 'Bench-Admin-1!';
export const SECRET_KEY = 'bench-oidc-instance-secret-0123456789';
const SCOPE = 'openid profile email groups';

type Provider = ReturnType<typeof createProvider>;

export async function setupOidcBench(dbName: string, logLevel: string) {
  const url = await recreateDatabase(dbName);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  const secrets = SecretBox.fromSecret(SECRET_KEY);
  const pool = (database.db as unknown as { $client: Pool }).$client;
  // Pooled connections stay open between rounds: a backend that exits (pg-pool's 10 s idle
  // timeout) takes its CPU time out of /proc, which made a round's PostgreSQL figure drop.
  (pool as unknown as { options: { idleTimeoutMillis: number } }).options.idleTimeoutMillis = 0;
  const clientId = randomUUID().replaceAll('-', '');
  const clientSecret = `bench-${randomUUID()}`;
  await database.db.insert(oauthClients).values({
    clientId,
    clientSecretEnc: secrets.encrypt(clientSecret),
    name: 'Bench app',
    redirectUris: ['http://127.0.0.1:9/callback'],
    scopes: ['openid', 'profile', 'email', 'groups'],
  });
  const { rows } = await pool.query<{ sub: string }>(`select oidc_sub as sub from users where username = 'admin'`);
  const sub = rows[0]?.sub;
  if (!sub) throw new Error('admin has no oidc_sub');

  const env = parseEnv({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: logLevel, HOST: '127.0.0.1', PORT: '0', SECRET_KEY });
  const app = await buildApp({
    env,
    database,
    secretKey: SECRET_KEY,
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, file: '/dev/null' },
    checkResponses: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
  return { app, database, secrets, pool, clientId, basic, sub, port, apiUrl: `http://127.0.0.1:${port}` };
}

export type OidcBench = Awaited<ReturnType<typeof setupOidcBench>>;

/** oidc-provider's internal instance state (its helpers/weak_cache reader), to swap the adapter. */
async function providerInternals(): Promise<{
  instance: (provider: Provider) => { Adapter: unknown; configuration: { clockTolerance: number } };
  createMemoryAdapter: (clockTolerance: number) => (model: string) => { upsert(id: string, payload: unknown): Promise<void> };
}> {
  const apiRequire = createRequire(join(BENCH_DIR, '..', 'apps', 'api', 'package.json'));
  const lib = join(dirname(apiRequire.resolve('oidc-provider')), '');
  const cache = await import(pathToFileURL(join(lib, 'helpers', 'weak_cache.js')).href);
  const memory = await import(pathToFileURL(join(lib, 'adapters', 'memory_adapter.js')).href);
  return { instance: cache.default, createMemoryAdapter: memory.createMemoryAdapter };
}

export interface BareProvider {
  provider: Provider;
  url: string;
  server: Server;
}

/**
 * The API's own provider configuration (createProvider, same database for accounts) served by a
 * plain Node HTTP server: with `memory`, its adapter is replaced by oidc-provider's in-memory
 * adapter before first use and the app's client metadata (what our Client model reads from
 * oauth_clients) is stored in it. Nothing else differs.
 */
export async function bareProvider(bench: OidcBench, memory: boolean): Promise<BareProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const jwks = await loadProviderJwks(bench.database.db, bench.secrets);
  const provider = createProvider({
    issuer,
    db: bench.database.db,
    secrets: bench.secrets,
    jwks,
    hooks: { consoleAccount: async () => undefined, interactionUrl: async () => '/consent' },
  });
  if (memory) {
    const { instance, createMemoryAdapter } = await providerInternals();
    const internals = instance(provider);
    const Adapter = createMemoryAdapter(internals.configuration.clockTolerance);
    internals.Adapter = Adapter;
    const metadata = await findClientMetadata(bench.database.db, bench.secrets, bench.clientId);
    await Adapter('Client').upsert(bench.clientId, metadata);
  }
  const server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { provider, url: issuer, server };
}

/** `count` fresh refresh tokens of one grant each (as the authorization-code grant issues them). */
export async function seedRefreshTokens(provider: Provider, bench: OidcBench, count: number): Promise<string[]> {
  const client = await provider.Client.find(bench.clientId);
  if (!client) throw new Error('bench client not found by the provider');
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const grant = new provider.Grant({ accountId: bench.sub, clientId: bench.clientId });
    grant.addOIDCScope(SCOPE);
    const grantId = await grant.save();
    const refreshToken = new provider.RefreshToken({
      accountId: bench.sub,
      amr: ['pwd'],
      authTime: Math.floor(Date.now() / 1000),
      client,
      grantId,
      gty: 'authorization_code',
      rotations: 0,
      scope: SCOPE,
    });
    tokens.push(await refreshToken.save());
  }
  return tokens;
}

export interface ChainSummary {
  duration_s: number;
  chains: number;
  grants: number;
  grants_per_s: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number };
  failures: number;
  first_failure?: string;
}

/** The chain load generator (a separate Node process): one keep-alive connection per chain. */
const CHAIN_SCRIPT = `
import http from 'node:http';
const cfg = JSON.parse(process.argv[1]);
const target = new URL(cfg.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.tokens.length });
const deadline = Date.now() + Math.min(cfg.duration, 120) * 1000;
const latencies = [];
let failures = 0;
let firstFailure;
function grant(token) {
  const body = 'grant_type=refresh_token&refresh_token=' + encodeURIComponent(token);
  return new Promise((resolve) => {
    const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST',
      headers: { authorization: cfg.basic, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } },
      (res) => { let text = ''; res.setEncoding('utf8'); res.on('data', (c) => { text += c; }); res.on('end', () => resolve({ status: res.statusCode, text })); });
    req.on('error', (error) => resolve({ status: 0, text: String(error) }));
    req.end(body);
  });
}
async function chain(token, index) {
  const interval = cfg.rate ? (cfg.tokens.length * 1000) / cfg.rate : 0;
  let next = Date.now() + (interval * index) / cfg.tokens.length;
  while (Date.now() < deadline && token) {
    if (interval) { const wait = next - Date.now(); if (wait > 0) await new Promise((r) => setTimeout(r, wait)); next += interval; }
    const start = process.hrtime.bigint();
    const { status, text } = await grant(token);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (status !== 200) { failures++; firstFailure ??= status + ' ' + text.slice(0, 200); return; }
    latencies.push(ms);
    token = JSON.parse(text).refresh_token;
  }
}
const started = Date.now();
await Promise.all(cfg.tokens.map((t, i) => chain(t, i)));
const elapsed = (Date.now() - started) / 1000;
agent.destroy();
process.stdout.write(JSON.stringify({ elapsed, latencies, failures, firstFailure }) + '\\n');
`;

export function runChains(config: {
  url: string;
  basic: string;
  tokens: string[];
  duration: number;
  rate?: number;
}): Promise<ChainSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHAIN_SCRIPT, JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), (config.duration + 60) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(guard);
      if (code !== 0) return reject(new Error(`chain load generator exited with ${code}`));
      try {
        const raw = JSON.parse(out.trim().split('\n').pop() ?? '') as {
          elapsed: number;
          latencies: number[];
          failures: number;
          firstFailure?: string;
        };
        const sorted = raw.latencies.sort((a, b) => a - b);
        resolve({
          duration_s: round(raw.elapsed, 2),
          chains: config.tokens.length,
          grants: sorted.length,
          grants_per_s: round(sorted.length / raw.elapsed),
          latency_ms: {
            p50: round(percentile(sorted, 50), 2),
            p90: round(percentile(sorted, 90), 2),
            p99: round(percentile(sorted, 99), 2),
            max: round(sorted.at(-1) ?? Number.NaN, 2),
          },
          failures: raw.failures,
          ...(raw.firstFailure ? { first_failure: raw.firstFailure } : {}),
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU ms of each PostgreSQL process working on `database`, by pid: client backends and autovacuum workers. */
export interface BackendCpu {
  at: number;
  backends: Map<number, number>;
  autovacuum: Map<number, number>;
}

export function backendCpu(database: string): BackendCpu {
  const backends = new Map<number, number>();
  const autovacuum = new Map<number, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!cmdline.startsWith('postgres:') || !cmdline.includes(` ${database} `)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
      (cmdline.startsWith('postgres: autovacuum') ? autovacuum : backends).set(Number(pid), ms);
    } catch {
      // the process ended meanwhile
    }
  }
  return { at: Date.now(), backends, autovacuum };
}

/**
 * CPU ms spent between two snapshots, per process: a process that started meanwhile counts from
 * zero, one that ended meanwhile is left out (and counted in `ended`) instead of subtracting all
 * the CPU it had ever used — what summing /proc totals did when autovacuum workers or idle pooled
 * connections exited during a round.
 */
export function backendCpuDelta(before: BackendCpu, after: BackendCpu) {
  const delta = (a: Map<number, number>, b: Map<number, number>) => {
    let ms = 0;
    for (const [pid, now] of b) ms += now - (a.get(pid) ?? 0);
    return ms;
  };
  const ended = (a: Map<number, number>, b: Map<number, number>) => [...a.keys()].filter((pid) => !b.has(pid)).length;
  return {
    backends_ms: delta(before.backends, after.backends),
    autovacuum_ms: delta(before.autovacuum, after.autovacuum),
    backends_ended: ended(before.backends, after.backends),
    autovacuum_workers_seen: new Set([...before.autovacuum.keys(), ...after.autovacuum.keys()]).size,
  };
}

/** Statements the pg driver sent from this process (every pool of every server in it). */
let statementsSent = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  statementsSent++;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;
export const statementCount = (): number => statementsSent;

/**
 * Checkpoints the PostgreSQL cluster has run so far (pg_stat_bgwriter). After each one the first
 * change to every page writes the whole page into the WAL, which costs the backends CPU: on a
 * shared host other engineers' CREATE/DROP DATABASE force one every few seconds.
 */
export async function checkpointCount(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`select (checkpoints_timed + checkpoints_req)::text as n from pg_stat_bgwriter`);
  return Number(rows[0]?.n ?? 0);
}
