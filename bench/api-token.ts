/**
 * API tokens: `GET /api/v1/me` authenticated by `Authorization: Bearer <API token>` against the
 * same route authenticated by the session cookie (the same admin user), alternating rounds.
 * Target (issue 13 §5): a Bearer request costs ≤ 1.1 × a cookie request, in CPU per request
 * (API process + PostgreSQL backends) and in req/s. The token path is one prepared lookup by the
 * token's non-secret id, a SHA-256 and a constant-time compare (no Argon2), and writes
 * `last_used_at` at most once a minute; the cookie path is one prepared lookup by the SHA-256 of
 * the cookie.
 *
 * The rounds alternate (cookie, bearer, then bearer, cookie, …) and the ratios are taken over all
 * rounds: the machine is shared, and one long run of each would compare different loads.
 *
 *   npx tsx api-token.ts          (from bench/; see README)
 *
 * Env: BENCH_CONNECTIONS (default 10), BENCH_DURATION (s per round, default 8), BENCH_ROUNDS
 *      (pairs, default 4), BENCH_LOG_LEVEL (default info).
 */
import { loadavg } from 'node:os';
import type { Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import { machineInfo, recreateDatabase, round, runLoad, runLoadMeasured, verdict, writeResult } from './lib/common.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Math.min(30, Number(process.env.BENCH_DURATION ?? 8));
const ROUNDS = Math.max(1, Math.min(10, Number(process.env.BENCH_ROUNDS ?? 4)));
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const DB_NAME = 'palisade_bench_api_token';
const ADMIN_PASSWORD = 'Bench-Admin-1!';

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(`api-token: ${machine.cpus} CPUs, ${machine.ram_gb} GB, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);
  const url = await recreateDatabase(DB_NAME);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  const env = parseEnv({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL, HOST: '127.0.0.1', PORT: '0' });
  const app = await buildApp({
    env,
    database,
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, file: '/dev/null' },
    checkResponses: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  try {
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    if (login.statusCode !== 200) throw new Error(`admin login failed: ${login.statusCode} ${login.body}`);
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/user/admin/api_token',
      headers: { cookie },
      payload: { name: 'bench' },
    });
    if (created.statusCode !== 201) throw new Error(`token create failed: ${created.statusCode} ${created.body}`);
    const token = (created.json() as { token: string }).token;

    const target = `http://127.0.0.1:${port}/api/v1/me`;
    const configs = {
      cookie: { url: target, connections: CONNECTIONS, headers: { cookie } },
      bearer: { url: target, connections: CONNECTIONS, headers: { authorization: `Bearer ${token}` } },
    };
    for (const [name, config] of Object.entries(configs)) {
      const check = await runLoad({ ...config, duration: 1 });
      if (check.status.non2xx > 0) throw new Error(`${name}: ${check.status.non2xx} non-2xx answers`);
    }
    console.log('warm-up (3 s each)…');
    await runLoad({ ...configs.cookie, duration: 3 });
    await runLoad({ ...configs.bearer, duration: 3 });

    type Run = Awaited<ReturnType<typeof runLoadMeasured>>;
    const rounds: { cookie: Run; bearer: Run; load: number }[] = [];
    const line = (name: string, r: Run) =>
      `${name} ${round(r.summary.req_per_s)} req/s (p50 ${r.summary.latency_ms.p50} ms, p99 ${r.summary.latency_ms.p99} ms, ` +
      `CPU/req ${r.cpu_per_request_ms.self_ms} ms node + ${r.cpu_per_request_ms.postgres_ms} ms pg, non2xx ${r.summary.status.non2xx})`;
    for (let i = 0; i < ROUNDS; i++) {
      const order: ('cookie' | 'bearer')[] = i % 2 === 0 ? ['cookie', 'bearer'] : ['bearer', 'cookie'];
      const runs: Partial<Record<'cookie' | 'bearer', Run>> = {};
      for (const kind of order) runs[kind] = await runLoadMeasured({ ...configs[kind], duration: DURATION }, DB_NAME);
      const pair = { cookie: runs.cookie as Run, bearer: runs.bearer as Run, load: round(loadavg()[0] ?? 0, 2) };
      rounds.push(pair);
      console.log(`round ${i + 1} (load ${pair.load}):\n  ${line('cookie', pair.cookie)}\n  ${line('bearer', pair.bearer)}`);
    }
    const mean = (f: (r: (typeof rounds)[number]) => number) => rounds.reduce((s, r) => s + f(r), 0) / rounds.length;
    const cookieRps = mean((r) => r.cookie.summary.req_per_s);
    const bearerRps = mean((r) => r.bearer.summary.req_per_s);
    const cookieCpu = mean((r) => r.cookie.cpu_per_request_ms.total_ms);
    const bearerCpu = mean((r) => r.bearer.cpu_per_request_ms.total_ms);
    const cpuRatio = bearerCpu / cookieCpu;
    const rpsRatio = cookieRps / bearerRps;
    const non2xx = rounds.reduce((s, r) => s + r.cookie.summary.status.non2xx + r.bearer.summary.status.non2xx, 0);
    const lastUsedWrites = Number(
      (
        await (database.db as unknown as { $client: Pool }).$client.query('select n_tup_upd from pg_stat_user_tables where relname = $1', [
          'api_tokens',
        ])
      ).rows[0]?.n_tup_upd ?? 0,
    );
    const met = cpuRatio <= 1.1 && rpsRatio <= 1.1 && non2xx === 0;
    const result = {
      machine,
      connections: CONNECTIONS,
      duration_s: DURATION,
      rounds: ROUNDS,
      cookie: {
        req_per_s: round(cookieRps),
        cpu_ms_per_request: round(cookieCpu, 3),
        p99_ms: Math.max(...rounds.map((r) => r.cookie.summary.latency_ms.p99)),
      },
      bearer: {
        req_per_s: round(bearerRps),
        cpu_ms_per_request: round(bearerCpu, 3),
        p99_ms: Math.max(...rounds.map((r) => r.bearer.summary.latency_ms.p99)),
      },
      per_round: rounds.map((r) => ({
        load: r.load,
        cookie: { req_per_s: round(r.cookie.summary.req_per_s), cpu_per_request_ms: r.cookie.cpu_per_request_ms },
        bearer: { req_per_s: round(r.bearer.summary.req_per_s), cpu_per_request_ms: r.bearer.cpu_per_request_ms },
      })),
      bearer_cpu_ratio: round(cpuRatio, 3),
      cookie_to_bearer_rps_ratio: round(rpsRatio, 3),
      api_tokens_row_updates: lastUsedWrites,
      non2xx,
      load_at_end: loadavg().map((l) => round(l, 2)),
      target: 'Bearer CPU per request ≤ 1.1 × cookie, and cookie req/s ≤ 1.1 × Bearer req/s (means over alternating rounds)',
      verdict: verdict(met),
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`written to ${writeResult('api-token', result)}`);
  } finally {
    await app.close();
    await database.close();
  }
}

await main();
