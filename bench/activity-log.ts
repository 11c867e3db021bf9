/**
 * Activity log: the real API (`GET /api/v1/activity_log`, admin session, one user + one module +
 * the last 7 days, 50 per page) against a bare Fastify route running the same SQL on the same pg
 * pool, on a PostgreSQL database with 1,000,000 activity log entries (500 users, 7 modules, 90
 * days). Targets (issue 9 §6, ratios measured in one run): API ≥ 50 % of bare req/s; API p99
 * ≤ 2 × bare p99 at 10 connections.
 *
 *   bench/node_modules/.bin/tsx bench/activity-log.ts          (from the repo root)
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (10), BENCH_ROUNDS (3),
 *      BENCH_ENTRIES (1000000), BENCH_USERS (500; another value writes results/activity-log-users<N>.json), BENCH_LOG_LEVEL (API log level, default info; logs go to /dev/null).
 */
import { createRequire } from 'node:module';
import type { Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import { machineInfo, recreateDatabase, round, runLoad, runLoadMeasured, verdict, writeResult } from './lib/common.ts';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
/** 500 users: the filtered page holds ~22 entries; BENCH_USERS=100 gives a full page (~110 match). */
const USERS = Number(process.env.BENCH_USERS ?? 500);
const RESULT_NAME = `activity-log${USERS !== 500 ? `-users${USERS}` : ''}`;
const PER_PAGE = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Math.min(5, Number(process.env.BENCH_ROUNDS ?? 3)));
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const DB_NAME = 'palisade_bench_activity_log';
const ADMIN_PASSWORD = 'Bench-Admin-1!';

const apiRequire = createRequire(new URL('../apps/api/package.json', import.meta.url));
const { default: Fastify } = (await import(apiRequire.resolve('fastify'))) as typeof import('../apps/api/node_modules/fastify');

const MODULES = ['auth', 'users', 'groups', 'locations', 'devices', 'gateways', 'settings'];
const TYPES = [
  'auth.login_succeeded',
  'user.modified',
  'group.member_added',
  'location.modified',
  'device.added',
  'gateway.connected',
  'settings.modified',
];

/** The statement the API's repo builds for this filter (activity-log.repo.ts `page`), written out. */
const FILTER = `e.occurred_at >= $1::timestamptz and e.occurred_at <= $2::timestamptz and lower(e.username) = any($3::text[]) and e.module = any($4::text[])`;
const BARE_SQL = `with total as (select count(*)::int as total from (select 1 from events e where ${FILTER} limit $7) c),
  page as (select e.id::float8 as id, e.tx_id::text as tx_id, e.occurred_at, e.actor_type, e.user_id, e.username, e.ip,
    e.user_agent, e.module, e.type, e.object_type, e.object_id, e.object_name, e.device_id, e.device_name, e.subject_user_id, e.details
    from events e where ${FILTER} order by e.occurred_at desc, e.id desc limit $5 offset $6)
  select t.total, p.* from total t left join page p on true order by p.occurred_at desc, p.id desc`;

/** 1,000,000 entries in batches of 100,000: user `g % 500`, module `g % 7`, evenly over 90 days. */
async function seed(pool: Pool): Promise<{ entries: number; users: number; modules: number; days: number }> {
  const batch = 100_000;
  for (let start = 1; start <= ENTRIES; start += batch) {
    const end = Math.min(ENTRIES, start + batch - 1);
    await pool.query(
      `insert into events (occurred_at, actor_type, user_id, username, ip, user_agent, module, type, object_type, object_id, object_name, details)
       select now() - (g::float8 / $1) * interval '90 days', 'user', 1000 + g % ${USERS}, 'user' || (g % ${USERS}),
              '10.0.' || (g % 250) || '.' || (g % 199 + 1), 'Mozilla/5.0 (bench)', ($3::text[])[1 + g % 7], ($4::text[])[1 + g % 7],
              'user', (g % 5000)::text, 'object-' || (g % 5000), jsonb_build_object('n', g)
       from generate_series($2::int, $5::int) g`,
      [ENTRIES, start, MODULES, TYPES, end],
    );
  }
  await pool.query('vacuum analyze events');
  return { entries: ENTRIES, users: USERS, modules: MODULES.length, days: 90 };
}

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(`activity-log: ${machine.cpus} CPUs, ${machine.ram_gb} GB, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);
  const url = await recreateDatabase(DB_NAME);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  const pool = (database.db as unknown as { $client: Pool }).$client;
  const seedStart = Date.now();
  const seeded = await seed(pool);
  console.log(`seeded ${JSON.stringify(seeded)} in ${Date.now() - seedStart} ms`);

  const env = parseEnv({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL, HOST: '127.0.0.1', PORT: '0' });
  const app = await buildApp({
    env,
    database,
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, file: '/dev/null' },
    checkResponses: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appPort = (app.server.address() as { port: number }).port;

  const to = new Date();
  const from = new Date(to.getTime() - 7 * 86_400_000);
  const user = 'user7';
  const module = 'users';
  const bare = Fastify({ logger: false });
  bare.get('/bare/activity_log', async () => {
    const { rows } = await pool.query({
      name: 'bench-bare-activity-log',
      text: BARE_SQL,
      values: [from.toISOString(), to.toISOString(), [user], [module], PER_PAGE, 0, 10_001],
    });
    return { items: rows.filter((r) => r.id !== null), page: 1, per_page: PER_PAGE, total: rows[0]?.total ?? 0 };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const barePort = (bare.server.address() as { port: number }).port;

  try {
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    if (login.statusCode !== 200) throw new Error(`admin login failed: ${login.statusCode} ${login.body}`);
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const query = new URLSearchParams({ user, module, from: from.toISOString(), to: to.toISOString(), per_page: String(PER_PAGE) });
    const apiUrl = `http://127.0.0.1:${appPort}/api/v1/activity_log?${query}`;
    const bareUrl = `http://127.0.0.1:${barePort}/bare/activity_log`;

    const a = (await (await fetch(apiUrl, { headers: { cookie } })).json()) as { items: { id: number }[]; total: number };
    const b = (await (await fetch(bareUrl)).json()) as { items: { id: number }[]; total: number };
    const ids = (x: { items: { id: number }[] }) => x.items.map((i) => i.id).join();
    if (a.total !== b.total || ids(a) !== ids(b) || a.items.length === 0) {
      throw new Error(`API and bare routes disagree: ${a.items.length}/${a.total} vs ${b.items.length}/${b.total}`);
    }
    console.log(`page check ok: ${a.items.length} entries, total ${a.total}`);
    const plan = await pool.query(
      `explain (analyze, buffers) ${BARE_SQL}`.replace(/\$(\d)/g, (_, n) => {
        const v = [from.toISOString(), to.toISOString(), `{${user}}`, `{${module}}`, PER_PAGE, 0, 10_001][Number(n) - 1];
        return typeof v === 'number' ? String(v) : `'${v}'`;
      }),
    );
    const planText = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    console.log(planText);

    const api = { url: apiUrl, headers: { cookie } };
    const base = { url: bareUrl };
    console.log('warm-up (3 s each)…');
    await runLoad({ ...api, connections: CONNECTIONS, duration: 3 });
    await runLoad({ ...base, connections: CONNECTIONS, duration: 3 });

    type Run = Awaited<ReturnType<typeof runLoadMeasured>>;
    const measure = (config: { url: string; headers?: Record<string, string> }) =>
      runLoadMeasured({ ...config, connections: CONNECTIONS, duration: DURATION }, DB_NAME);
    const rounds: { api: Run; bare: Run }[] = [];
    const line = (name: string, r: Run) =>
      `${name} ${round(r.summary.req_per_s)} req/s (p50 ${r.summary.latency_ms.p50} ms, p99 ${r.summary.latency_ms.p99} ms, ` +
      `CPU/req ${r.cpu_per_request_ms.self_ms} ms node + ${r.cpu_per_request_ms.postgres_ms} ms pg, non2xx ${r.summary.status.non2xx}, errors ${r.summary.errors})`;
    for (let i = 0; i < ROUNDS; i++) {
      // Alternating order, so drift (other load, autovacuum) hits both alike.
      const first = await measure(i % 2 === 0 ? api : base);
      const second = await measure(i % 2 === 0 ? base : api);
      const pair = i % 2 === 0 ? { api: first, bare: second } : { api: second, bare: first };
      rounds.push(pair);
      console.log(`round ${i + 1}:\n  ${line('api ', pair.api)}\n  ${line('bare', pair.bare)}`);
    }
    const mean = (f: (r: (typeof rounds)[number]) => number) => rounds.reduce((s, r) => s + f(r), 0) / rounds.length;
    const median = (f: (r: (typeof rounds)[number]) => number) => {
      const v = rounds.map(f).sort((x, y) => x - y);
      const mid = Math.floor(v.length / 2);
      return v.length % 2 ? (v[mid] ?? 0) : ((v[mid - 1] ?? 0) + (v[mid] ?? 0)) / 2;
    };
    const apiRps = mean((r) => r.api.summary.req_per_s);
    const bareRps = mean((r) => r.bare.summary.req_per_s);
    const apiP99 = median((r) => r.api.summary.latency_ms.p99);
    const bareP99 = median((r) => r.bare.summary.latency_ms.p99);
    const failures = rounds.reduce((n, r) => n + [r.api, r.bare].reduce((m, x) => m + x.summary.status.non2xx + x.summary.errors, 0), 0);
    const brief = (r: Run) => ({
      req_per_s: round(r.summary.req_per_s),
      latency_ms: r.summary.latency_ms,
      requests: r.summary.requests_total,
      non2xx: r.summary.status.non2xx,
      errors: r.summary.errors,
      cpu_per_request_ms: r.cpu_per_request_ms,
    });
    const result = {
      benchmark: 'activity-log',
      command: `${USERS !== 500 ? `BENCH_USERS=${USERS} ` : ''}bench/node_modules/.bin/tsx bench/activity-log.ts`,
      machine,
      setup: {
        database: 'PostgreSQL (pg pool of 10, the API default)',
        seeded,
        request: `GET /api/v1/activity_log?user=${user}&module=${module}&from=<now-7d>&to=<now>&per_page=${PER_PAGE} (admin session cookie)`,
        bare: 'plain Fastify route, the same SQL statement (page + total capped at 10,001) as a named prepared statement on the same pg pool, no schema/hooks/mapping',
        page: { entries: a.items.length, total: a.total },
        plan: planText,
        connections: CONNECTIONS,
        duration_s: DURATION,
        rounds: ROUNDS,
        api_log_level: LOG_LEVEL,
        aggregation: 'req/s: mean over rounds; p99: per run, then the median over rounds',
      },
      rounds: rounds.map((r) => ({ api: brief(r.api), bare: brief(r.bare) })),
      figures: {
        api_req_per_s: round(apiRps),
        bare_req_per_s: round(bareRps),
        ratio_percent: round((apiRps / bareRps) * 100),
        api_p50_ms: median((r) => r.api.summary.latency_ms.p50),
        api_p99_ms: apiP99,
        bare_p99_ms: bareP99,
        p99_ratio: round(apiP99 / bareP99, 2),
        failed_requests: failures,
      },
      targets: {
        ratio_at_least_50_percent: verdict(apiRps / bareRps >= 0.5),
        [`p99_at_most_2_times_bare_at_${CONNECTIONS}_connections`]: verdict(apiP99 / bareP99 <= 2),
      },
    };
    const file = writeResult(RESULT_NAME, result);
    console.log(
      `\nAPI ${result.figures.api_req_per_s} req/s vs bare ${result.figures.bare_req_per_s} req/s → ${result.figures.ratio_percent} % (target ≥ 50 %: ${result.targets.ratio_at_least_50_percent})`,
    );
    console.log(`p99 at ${CONNECTIONS} connections: API ${apiP99} ms vs bare ${bareP99} ms → ×${result.figures.p99_ratio} (target ≤ 2)`);
    console.log(`failed requests: ${failures}\nwrote ${file}`);
  } finally {
    await bare.close();
    await app.close();
    await database.close();
  }
}

await main();
