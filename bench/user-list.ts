/**
 * User list: the real API (`GET /api/v1/user?per_page=50`, admin session) against a bare Fastify
 * route doing one equivalent SELECT on the same pg pool, on a PostgreSQL database with 10,000 users.
 * Targets (ratios, measured in one run so that the machine's noise hits both routes): API ≥ 75 % of
 * bare req/s and API p99 ≤ 1.3 × bare p99 at 50 connections; API p99 < 20 ms at 10 connections.
 *
 *   npx tsx bench/user-list.ts          (from the repo root)
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (50), BENCH_LOW_CONNECTIONS (10), BENCH_ROUNDS (3),
 *      BENCH_LOG_LEVEL (API log level, default info — the production default; logs go to /dev/null),
 *      BENCH_POOL_SIZE (default 10, the API's pool size) — another value is an experiment; results
 *      then go to results/user-list-pool<N>.json.
 */
import { createRequire } from 'node:module';
import type { Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import { seedUsers } from './lib/seed.ts';
import { machineInfo, recreateDatabase, round, runLoad, runLoadMeasured, verdict, writeResult } from './lib/common.ts';

const USERS = 10_000;
const GROUPS = 20;
const PER_PAGE = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Math.max(1, Math.min(5, Number(process.env.BENCH_ROUNDS ?? 3)));
/** The second concurrency, for the p99 target at a light load. */
const LOW_CONNECTIONS = Number(process.env.BENCH_LOW_CONNECTIONS ?? 10);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
/** pg pool size; 10 is the API's default (DATABASE_POOL_SIZE). */
const POOL_SIZE = Math.max(1, Math.min(50, Number(process.env.BENCH_POOL_SIZE ?? 10)));
const DB_NAME = 'palisade_bench_user_list';
const RESULT_NAME = `user-list${POOL_SIZE !== 10 ? `-pool${POOL_SIZE}` : ''}`;
const ADMIN_PASSWORD = 'Bench-Admin-1!';

// Fastify as the API resolves it (the bench package does not depend on it directly).
const apiRequire = createRequire(new URL('../apps/api/package.json', import.meta.url));
const { default: Fastify } = (await import(apiRequire.resolve('fastify'))) as typeof import('../apps/api/node_modules/fastify');

/**
 * The bare route's single statement: the same page and sort as the API, the total read from the
 * trigger-kept `row_counts` (as the API reads it for an unfiltered list, with the same `count(*)`
 * fallback), each user's group names aggregated through a lateral join.
 */
const BARE_SQL = `
  select u.id, u.username, u.first_name, u.last_name, u.email, u.phone, u.is_active, u.mfa_enabled,
         u.mfa_method, u.enrolled, u.password_hash is not null as has_password, u.created_at,
         coalesce((select n from row_counts where name = 'users'), (select count(*) from users)) as total,
         coalesce(gs.groups, '{}') as groups, coalesce(gs.is_admin, false) as is_admin
  from (select * from users order by lower(username), id limit $1 offset $2) u
  left join lateral (
    select array_agg(g.name order by g.name) as groups, bool_or(g.is_admin) as is_admin
    from group_members gm join groups g on g.id = gm.group_id where gm.user_id = u.id
  ) gs on true
  order by lower(u.username), u.id`;

/**
 * Not part of the targets: BARE_SQL with the total from `count(*) over ()` instead (the API's
 * approach before it split the count), which makes PostgreSQL read every matching row before the
 * LIMIT. Shows what that choice costs.
 */
const WINDOW_SQL = `
  select p.id, p.username, p.first_name, p.last_name, p.email, p.phone, p.is_active, p.mfa_enabled,
         p.mfa_method, p.enrolled, p.password_hash is not null as has_password, p.created_at, p.total,
         coalesce(gs.groups, '{}') as groups, coalesce(gs.is_admin, false) as is_admin
  from (
    select u.*, count(*) over () as total
    from users u
    order by lower(u.username), u.id
    limit $1 offset $2
  ) p
  left join lateral (
    select array_agg(g.name order by g.name) as groups, bool_or(g.is_admin) as is_admin
    from group_members gm join groups g on g.id = gm.group_id where gm.user_id = p.id
  ) gs on true
  order by lower(p.username), p.id`;

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(`user-list: ${machine.cpus} CPUs, ${machine.ram_gb} GB, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);

  const url = await recreateDatabase(DB_NAME);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: POOL_SIZE });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);

  // Same pool as the API: drizzle keeps the pg.Pool it was built on as `$client`.
  const pool = (database.db as unknown as { $client: Pool }).$client;
  const seedStart = Date.now();
  const seeded = await seedUsers(pool, USERS, GROUPS);

  console.log(`seeded ${JSON.stringify(seeded)} in ${Date.now() - seedStart} ms`);

  const env = parseEnv({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL, HOST: '127.0.0.1', PORT: '0' });
  const app = await buildApp({
    env,
    database,
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, file: '/dev/null' },
    checkResponses: false, // as main.ts runs it
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appPort = (app.server.address() as { port: number }).port;

  const bare = Fastify({ logger: false });
  // Named prepared statements, as the API's hot paths use (src/db/rows.ts).
  const pageRoute = (name: string, text: string) => async (request: { query: unknown }) => {
    const q = request.query as { page?: string; per_page?: string };
    const perPage = Math.min(200, Math.max(1, Number(q.per_page ?? PER_PAGE) || PER_PAGE));
    const page = Math.max(1, Number(q.page ?? 1) || 1);
    const { rows } = await pool.query({ name, text, values: [perPage, (page - 1) * perPage] });
    return { items: rows, page, per_page: perPage, total: Number(rows[0]?.total ?? 0) };
  };
  bare.get('/bare/users', pageRoute('bench-bare-users', BARE_SQL));
  bare.get('/bare-window/users', pageRoute('bench-bare-window-users', WINDOW_SQL));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as { port: number }).port;

  try {
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    if (login.statusCode !== 200) throw new Error(`admin login failed: ${login.statusCode} ${login.body}`);
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';

    const apiUrl = `http://127.0.0.1:${appPort}/api/v1/user?per_page=${PER_PAGE}`;
    const bareUrl = `http://127.0.0.1:${barePort}/bare/users?per_page=${PER_PAGE}`;

    // Both answer the same page.
    const a = (await (await fetch(apiUrl, { headers: { cookie } })).json()) as { items: { username: string }[]; total: number };
    const b = (await (await fetch(bareUrl)).json()) as { items: { username: string }[]; total: number };
    const cheapUrl = `http://127.0.0.1:${barePort}/bare-window/users?per_page=${PER_PAGE}`;
    const c = (await (await fetch(cheapUrl)).json()) as { items: { username: string; groups: string[] }[]; total: number };
    const names = (x: { items: { username: string }[] }) => x.items.map((i) => i.username).join();
    const same = a.total === b.total && b.total === c.total && names(a) === names(b) && names(b) === names(c);
    if (!same) throw new Error('API and bare routes disagree on the page');
    const apiBytes = JSON.stringify(a).length;
    const bareBytes = JSON.stringify(b).length;
    console.log(`page check ok: ${a.items.length} users, total ${a.total}; body ${apiBytes} B (api) / ${bareBytes} B (bare)`);

    const api = { url: apiUrl, headers: { cookie } };
    const base = { url: bareUrl };
    const cheap = { url: cheapUrl };
    console.log('warm-up (3 s each)…');
    await runLoad({ ...api, connections: CONNECTIONS, duration: 3 });
    await runLoad({ ...base, connections: CONNECTIONS, duration: 3 });
    await runLoad({ ...cheap, connections: CONNECTIONS, duration: 3 });

    type Run = Awaited<ReturnType<typeof runLoadMeasured>>;
    type Target = { url: string; headers?: Record<string, string> };
    const measure = (config: Target, connections: number) => runLoadMeasured({ ...config, connections, duration: DURATION }, DB_NAME);
    /** API and bare back to back, in alternating order so drift (other load, autovacuum) hits both alike. */
    const pair = async (i: number, connections: number): Promise<{ api: Run; bare: Run }> => {
      if (i % 2 === 0) {
        const apiRun = await measure(api, connections);
        return { api: apiRun, bare: await measure(base, connections) };
      }
      const bareRun = await measure(base, connections);
      return { api: await measure(api, connections), bare: bareRun };
    };
    const rounds: { api: Run; bare: Run; api_low: Run; bare_low: Run }[] = [];
    let cheapRun: Run | undefined;
    const line = (name: string, r: Run) =>
      `${name} ${round(r.summary.req_per_s)} req/s (p50 ${r.summary.latency_ms.p50} ms, p99 ${r.summary.latency_ms.p99} ms, ` +
      `CPU/req ${r.cpu_per_request_ms.self_ms} ms node + ${r.cpu_per_request_ms.postgres_ms} ms pg, non2xx ${r.summary.status.non2xx}, errors ${r.summary.errors})`;
    for (let i = 0; i < ROUNDS; i++) {
      const high = await pair(i, CONNECTIONS);
      const low = await pair(i + 1, LOW_CONNECTIONS);
      rounds.push({ ...high, api_low: low.api, bare_low: low.bare });
      console.log(
        `round ${i + 1}:\n  ${line(`api  ${CONNECTIONS}`, high.api)}\n  ${line(`bare ${CONNECTIONS}`, high.bare)}` +
          `\n  ${line(`api  ${LOW_CONNECTIONS}`, low.api)}\n  ${line(`bare ${LOW_CONNECTIONS}`, low.bare)}`,
      );
      if (i === 0) {
        cheapRun = await measure(cheap, CONNECTIONS);
        console.log(`  ${line('bare, count(*) over ()', cheapRun)}`);
      }
    }
    if (!cheapRun) throw new Error('no informational run');

    const mean = (f: (r: (typeof rounds)[number]) => number) => rounds.reduce((sum, r) => sum + f(r), 0) / rounds.length;
    const median = (f: (r: (typeof rounds)[number]) => number) => {
      const values = rounds.map(f).sort((a, b) => a - b);
      const mid = Math.floor(values.length / 2);
      return values.length % 2 ? (values[mid] ?? 0) : ((values[mid - 1] ?? 0) + (values[mid] ?? 0)) / 2;
    };
    const apiRps = mean((r) => r.api.summary.req_per_s);
    const bareRps = mean((r) => r.bare.summary.req_per_s);
    const ratio = apiRps / bareRps;
    // p99 per round, then the median over rounds: one stall of the shared host moves one round only.
    const apiP99 = median((r) => r.api.summary.latency_ms.p99);
    const bareP99 = median((r) => r.bare.summary.latency_ms.p99);
    const p99Ratio = apiP99 / bareP99;
    const apiLowP99 = median((r) => r.api_low.summary.latency_ms.p99);
    const failures = rounds.reduce(
      (sum, r) => sum + [r.api, r.bare, r.api_low, r.bare_low].reduce((n, x) => n + x.summary.status.non2xx + x.summary.errors, 0),
      cheapRun.summary.status.non2xx + cheapRun.summary.errors,
    );
    const apiCpu = mean((r) => r.api.cpu_per_request_ms.total_ms);
    const bareCpu = mean((r) => r.bare.cpu_per_request_ms.total_ms);
    const brief = (r: Run) => ({
      req_per_s: round(r.summary.req_per_s),
      latency_ms: r.summary.latency_ms,
      requests: r.summary.requests_total,
      non2xx: r.summary.status.non2xx,
      errors: r.summary.errors,
      cpu_per_request_ms: r.cpu_per_request_ms,
    });

    const result = {
      benchmark: 'user-list',
      command: `${POOL_SIZE !== 10 ? `BENCH_POOL_SIZE=${POOL_SIZE} ` : ''}npx tsx bench/user-list.ts`,
      pool_size: POOL_SIZE,
      machine,
      setup: {
        database: `PostgreSQL (pg pool of ${POOL_SIZE}${POOL_SIZE === 10 ? ', the API default' : '; the API uses 10'})`,
        seeded,
        request: `GET /api/v1/user?per_page=${PER_PAGE} (admin session cookie)`,
        bare: 'plain Fastify route, one SQL statement (page + total from the trigger-kept row_counts like the API + group names aggregated by a lateral join), same pg pool, no schema/hooks',
        bare_window_count:
          'informational (first round only): the same statement with the total from count(*) over () (the API before it split the count)',
        connections: CONNECTIONS,
        low_connections: LOW_CONNECTIONS,
        duration_s: DURATION,
        rounds: ROUNDS,
        api_log_level: LOG_LEVEL,
        body_bytes: { api: apiBytes, bare: bareBytes },
        aggregation: 'req/s: mean over rounds; p99: per run, then the median over rounds',
        cpu_accounting:
          'CPU ms per request: this process (server side; the load generator is another process) and the PostgreSQL backends of the bench database, from /proc',
      },
      rounds: rounds.map((r) => ({
        api: brief(r.api),
        bare: brief(r.bare),
        [`api_${LOW_CONNECTIONS}_connections`]: brief(r.api_low),
        [`bare_${LOW_CONNECTIONS}_connections`]: brief(r.bare_low),
      })),
      bare_window_count: brief(cheapRun),
      figures: {
        api_req_per_s: round(apiRps),
        bare_req_per_s: round(bareRps),
        ratio_percent: round(ratio * 100),
        api_p50_ms: median((r) => r.api.summary.latency_ms.p50),
        api_p99_ms: apiP99,
        bare_p99_ms: bareP99,
        p99_ratio: round(p99Ratio, 2),
        [`api_p99_ms_at_${LOW_CONNECTIONS}_connections`]: apiLowP99,
        [`bare_p99_ms_at_${LOW_CONNECTIONS}_connections`]: median((r) => r.bare_low.summary.latency_ms.p99),
        api_cpu_ms_per_request: round(apiCpu, 3),
        bare_cpu_ms_per_request: round(bareCpu, 3),
        cpu_ratio_percent: round((bareCpu / apiCpu) * 100),
        info_bare_window_count_req_per_s: round(cheapRun.summary.req_per_s),
        info_bare_window_count_p99_ms: cheapRun.summary.latency_ms.p99,
        failed_requests: failures,
      },
      targets: {
        ratio_at_least_75_percent: verdict(ratio >= 0.75),
        p99_at_most_1_3_times_bare: verdict(p99Ratio <= 1.3),
        [`p99_below_20_ms_at_${LOW_CONNECTIONS}_connections`]: verdict(apiLowP99 < 20),
      },
    };
    const file = writeResult(RESULT_NAME, result);
    console.log(
      `\nAPI ${result.figures.api_req_per_s} req/s vs bare ${result.figures.bare_req_per_s} req/s → ${result.figures.ratio_percent} % (target ≥ 75 %: ${result.targets.ratio_at_least_75_percent})`,
    );
    console.log(
      `p99 at ${CONNECTIONS} connections: API ${apiP99} ms vs bare ${bareP99} ms → ×${result.figures.p99_ratio} (target ≤ 1.3: ${result.targets.p99_at_most_1_3_times_bare})`,
    );
    console.log(`API p99 at ${LOW_CONNECTIONS} connections: ${apiLowP99} ms (target < 20 ms: ${verdict(apiLowP99 < 20)})`);
    console.log(
      `CPU per request (node + pg): API ${result.figures.api_cpu_ms_per_request} ms, bare ${result.figures.bare_cpu_ms_per_request} ms → bare/API ${result.figures.cpu_ratio_percent} %`,
    );
    console.log(`failed requests: ${failures}\nwrote ${file}`);
  } finally {
    await bare.close();
    await app.close();
    await database.close();
  }
}

await main();
