/**
 * Metrics cost (issue 17 §5), two parts, one run:
 *
 * 1. Scrape: `GET /metrics` (bearer token, the API's own plugin and registry) with 1,000 gateways'
 *    series (1,000 locations with one gateway each — the worst case, one series pair per gateway),
 *    request series of 150 route templates × 3 statuses, and the outbox lag counted on a real
 *    PostgreSQL database with a consumer 10,000 events behind. Cold scrapes (outbox lag not cached)
 *    and warm ones. Target: p99 < 50 ms.
 * 2. Overhead: `GET /api/v1/user?per_page=50` (admin session, 10,000 users) on two apps in this
 *    process on the same database — request metrics on vs off (`requestMetrics: false`) —
 *    alternating rounds at 10 connections. Target: with ≥ 97 % of the req/s without.
 *
 *   npx tsx bench/metrics.ts          (from the repo root)
 *
 * Env: BENCH_DURATION (s, default 8), BENCH_ROUNDS (pairs, default 3), BENCH_SCRAPES (default 200),
 *      BENCH_ROUTES (route templates with request series, default 150; another value writes
 *      results/metrics-routes<N>.json), BENCH_SCRAPE_ONLY=1 (part 1 only, prints, writes nothing).
 *
 * Each scrape's CPU time (this process: process.cpuUsage, user + system) is reported next to its
 * wall time: on a shared host the wall time also counts other processes' turns, the CPU time not.
 */
import { createRequire } from 'node:module';
import type { Pool } from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import type { GatewayControl } from '../apps/api/src/gateway-control/gateway-control.ts';
import { ApiMetrics } from '../apps/api/src/modules/metrics/api-metrics.ts';
import { parseExposition } from '../apps/api/src/modules/metrics/exposition.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import { metricsPlugin } from '../apps/api/src/plugins/metrics.ts';
import { machineInfo, percentile, recreateDatabase, round, runLoadMeasured, verdict, writeResult } from './lib/common.ts';
import { seedUsers } from './lib/seed.ts';

// Fastify as the API resolves it (the bench package does not depend on it directly).
const apiRequire = createRequire(new URL('../apps/api/package.json', import.meta.url));
const { default: Fastify } = (await import(apiRequire.resolve('fastify'))) as typeof import('../apps/api/node_modules/fastify');

const GATEWAYS = 1000;
/** Route templates with request series (× 3 statuses each); 150 is a heavy case, every route of a big deployment in use. */
const ROUTES = Math.max(0, Number(process.env.BENCH_ROUTES ?? 150));
const RESULT_NAME = ROUTES === 150 ? 'metrics' : `metrics-routes${ROUTES}`;
const LAG_EVENTS = 10_000;
const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 200);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Math.max(1, Math.min(5, Number(process.env.BENCH_ROUNDS ?? 3)));
const CONNECTIONS = 10;
const DB_NAME = 'palisade_bench_metrics';
const ADMIN_PASSWORD = 'Bench-Admin-1!';
const TOKEN = 'bench-metrics-token-0123456789';

/** CPU time of this process while `fn` runs, in ms (other processes' load does not count). */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50), 2),
    p99: round(percentile(sorted, 99), 2),
    max: round(sorted.at(-1) ?? 0, 2),
  };
}

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(`metrics: ${machine.cpus} CPUs, ${machine.ram_gb} GB, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);
  const url = await recreateDatabase(DB_NAME);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  const pool = (database.db as unknown as { $client: Pool }).$client;
  const seeded = await seedUsers(pool, 10_000, 20);
  // A consumer LAG_EVENTS events behind: the outbox lag query counts them at each cold scrape.
  await pool.query(`insert into event_consumers (name) values ('bench-slow-consumer') on conflict do nothing`);
  await pool.query(`insert into events (type, module, actor_type, object_type, details)
    select 'user.modified', 'identity', 'system', 'user', '{}'::jsonb from generate_series(1, ${LAG_EVENTS})`);

  // Part 1: the scrape.
  const fakeControl = {
    connectedGateways: () => Array.from({ length: GATEWAYS }, (_, i) => ({ locationId: i + 1, gateways: 1, maxRevisionLag: i % 3 })),
  } as unknown as GatewayControl;
  /** One request on every request series (route template × status). */
  const observeAll = (metrics: ApiMetrics) => {
    for (let r = 0; r < ROUTES; r++) {
      for (const status of [200, 400, 404]) metrics.observeRequest('GET', `/api/v1/bench/route${r}/:id`, status, 0.003 * ((r % 7) + 1));
    }
  };
  const buildScrapeServer = async (outboxLagCacheMs?: number) => {
    const metrics = new ApiMetrics({ database, gatewayControl: fakeControl, outboxLagCacheMs });
    observeAll(metrics);
    const server = Fastify({ logger: false });
    await server.register(metricsPlugin, { metrics, token: TOKEN });
    await server.ready();
    return { server, metrics };
  };
  /**
   * One scrape; the body is read as a stream and decoded only when asked for: decoding ~0.8 MB into
   * a string is the scraper's work (Prometheus, another process), not the API's.
   */
  const scrapeOnce = async ({ server }: Awaited<ReturnType<typeof buildScrapeServer>>, read = false) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const res = await server.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
      payloadAsStream: true,
    });
    const ms = performance.now() - started;
    const cpuMs = cpuMsSince(cpu);
    if (res.statusCode !== 200) throw new Error(`scrape: ${res.statusCode}`);
    const body = read ? Buffer.concat((await res.stream().toArray()) as Buffer[]).toString() : '';
    return { ms, cpuMs, body };
  };
  const warmServer = await buildScrapeServer();
  const first = await scrapeOnce(warmServer, true);
  const samples = parseExposition(first.body);
  const lag = samples.find((s) => s.name === 'palisade_event_outbox_lag')?.value;
  const gatewaySeries = samples.filter((s) => s.name.startsWith('palisade_gateway')).length;
  console.log(`scrape: ${samples.length} samples, ${first.body.length} bytes, ${gatewaySeries} gateway samples, outbox lag ${lag}`);
  const warm: number[] = [];
  const warmCpu: number[] = [];
  for (let i = 0; i < SCRAPES; i++) {
    const { ms, cpuMs } = await scrapeOnce(warmServer);
    warm.push(ms);
    warmCpu.push(cpuMs);
  }
  // Cold: the outbox lag is counted in the database on every scrape (no reuse), as for a Prometheus
  // scraping every 15 s (longer than OUTBOX_LAG_CACHE_MS). One long-lived registry, as in the API.
  const coldServer = await buildScrapeServer(0);
  await scrapeOnce(coldServer);
  const cold: number[] = [];
  const coldCpu: number[] = [];
  for (let i = 0; i < SCRAPES; i++) {
    const { ms, cpuMs } = await scrapeOnce(coldServer);
    cold.push(ms);
    coldCpu.push(cpuMs);
  }
  // Busy: every request series got a request since the last scrape (none of its lines can be
  // reused), the outbox lag counted too: the worst case.
  const busy: number[] = [];
  const busyCpu: number[] = [];
  for (let i = 0; i < SCRAPES; i++) {
    observeAll(coldServer.metrics);
    const { ms, cpuMs } = await scrapeOnce(coldServer);
    busy.push(ms);
    busyCpu.push(cpuMs);
  }
  await coldServer.server.close();
  await warmServer.server.close();
  const scrape = {
    warm_ms: stats(warm),
    cold_ms: stats(cold),
    busy_ms: stats(busy),
    warm_cpu_ms: stats(warmCpu),
    cold_cpu_ms: stats(coldCpu),
    busy_cpu_ms: stats(busyCpu),
  };
  console.log(
    `scrape warm ${JSON.stringify(scrape.warm_ms)} · cold (outbox lag counted) ${JSON.stringify(scrape.cold_ms)} · busy (every series changed, lag counted) ${JSON.stringify(scrape.busy_ms)}`,
  );
  console.log(
    `scrape CPU (this process) warm ${JSON.stringify(scrape.warm_cpu_ms)} · cold ${JSON.stringify(scrape.cold_cpu_ms)} · busy ${JSON.stringify(scrape.busy_cpu_ms)}`,
  );
  if (process.env.BENCH_SCRAPE_ONLY === '1') {
    await database.close();
    return;
  }

  // Part 2: user-list throughput with and without request metrics.
  const env = parseEnv({
    DATABASE_URL: url,
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_TOKEN: TOKEN,
  });
  const logger = { level: 'info', file: '/dev/null' };
  const withApp = await buildApp({ env, database, logger, checkResponses: false });
  const withoutApp = await buildApp({ env, database, logger, checkResponses: false, requestMetrics: false });
  try {
    const targets: Record<'with' | 'without', { url: string; headers: Record<string, string> }> = {} as never;
    for (const [name, app] of [
      ['with', withApp],
      ['without', withoutApp],
    ] as const) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = (app.server.address() as { port: number }).port;
      const login = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
      if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode}`);
      targets[name] = {
        url: `http://127.0.0.1:${port}/api/v1/user?per_page=50`,
        headers: { cookie: String(login.headers['set-cookie']).split(';')[0] ?? '' },
      };
    }
    const metricsUrl = targets.with.url.replace(/\/api\/v1\/user.*/, '/metrics');
    if ((await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } })).status !== 200) throw new Error('with: no /metrics');
    if ((await fetch(targets.without.url.replace(/\/api\/v1\/user.*/, '/metrics'))).status !== 404)
      throw new Error('without: /metrics exists');
    console.log('warm-up (3 s each)…');
    await runLoadMeasured({ ...targets.with, connections: CONNECTIONS, duration: 3 });
    await runLoadMeasured({ ...targets.without, connections: CONNECTIONS, duration: 3 });
    type Run = Awaited<ReturnType<typeof runLoadMeasured>>;
    const rounds: { with: Run; without: Run }[] = [];
    const measure = (name: 'with' | 'without') =>
      runLoadMeasured({ ...targets[name], connections: CONNECTIONS, duration: DURATION }, DB_NAME);
    for (let i = 0; i < ROUNDS; i++) {
      const order: ('with' | 'without')[] = i % 2 === 0 ? ['with', 'without'] : ['without', 'with'];
      const got: Partial<Record<'with' | 'without', Run>> = {};
      for (const name of order) got[name] = await measure(name);
      rounds.push(got as { with: Run; without: Run });
      const line = (r: Run) =>
        `${round(r.summary.req_per_s)} req/s, p99 ${r.summary.latency_ms.p99} ms, CPU/req ${r.cpu_per_request_ms.self_ms} ms`;
      console.log(`round ${i + 1}: with ${line(got.with!)} · without ${line(got.without!)}`);
    }
    const mean = (f: (r: (typeof rounds)[number]) => number) => rounds.reduce((s, r) => s + f(r), 0) / rounds.length;
    const withRps = mean((r) => r.with.summary.req_per_s);
    const withoutRps = mean((r) => r.without.summary.req_per_s);
    const ratio = withRps / withoutRps;
    const failures = rounds.reduce(
      (n, r) => n + r.with.summary.status.non2xx + r.with.summary.errors + r.without.summary.status.non2xx + r.without.summary.errors,
      0,
    );
    const brief = (r: Run) => ({
      req_per_s: round(r.summary.req_per_s),
      latency_ms: r.summary.latency_ms,
      cpu_per_request_ms: r.cpu_per_request_ms,
    });
    const result = {
      benchmark: 'metrics',
      command: `${ROUTES === 150 ? '' : `BENCH_ROUTES=${ROUTES} `}npx tsx bench/metrics.ts`,
      machine,
      setup: {
        database: 'PostgreSQL (pg pool of 10, the API default)',
        scrape: `GET /metrics through the API's metrics plugin and registry (bearer token), ${GATEWAYS} gateways on ${GATEWAYS} locations (palisade_gateways_connected + palisade_gateway_revision_lag each), ${ROUTES} route templates × 3 statuses of request series, default process metrics, outbox lag counted over a consumer ${LAG_EVENTS} events behind; fastify inject (no socket)`,
        scrape_samples: samples.length,
        scrape_bytes: first.body.length,
        warm: `${SCRAPES} scrapes on one registry (outbox lag cached 5 s)`,
        cold: `${cold.length} scrapes on one registry with no reuse of the outbox lag (counted in PostgreSQL at each scrape)`,
        busy: `${busy.length} scrapes as cold, each after one request on every request series (no series' lines reused)`,
        overhead: `GET /api/v1/user?per_page=50 (admin session, ${JSON.stringify(seeded)}), two apps in this process on the same pool: request metrics on vs off (requestMetrics: false, no hook and no /metrics); ${CONNECTIONS} connections, ${ROUNDS} alternating pairs × ${DURATION} s`,
      },
      scrape,
      rounds: rounds.map((r) => ({ with: brief(r.with), without: brief(r.without) })),
      figures: {
        scrape_cold_p99_ms: scrape.cold_ms.p99,
        scrape_warm_p99_ms: scrape.warm_ms.p99,
        scrape_busy_p99_ms: scrape.busy_ms.p99,
        scrape_busy_cpu_p50_ms: scrape.busy_cpu_ms.p50,
        scrape_cold_cpu_p50_ms: scrape.cold_cpu_ms.p50,
        scrape_warm_cpu_p50_ms: scrape.warm_cpu_ms.p50,
        with_req_per_s: round(withRps),
        without_req_per_s: round(withoutRps),
        with_percent_of_without: round(ratio * 100),
        // CPU per request (this process + the database's backends): steadier than req/s on a shared host.
        with_cpu_ms_per_request: round(
          mean((r) => r.with.cpu_per_request_ms.total_ms),
          3,
        ),
        without_cpu_ms_per_request: round(
          mean((r) => r.without.cpu_per_request_ms.total_ms),
          3,
        ),
        with_cpu_percent_of_without: round(
          (mean((r) => r.with.cpu_per_request_ms.total_ms) / mean((r) => r.without.cpu_per_request_ms.total_ms)) * 100,
        ),
        failed_requests: failures,
      },
      targets: {
        scrape_p99_below_50_ms: verdict(scrape.cold_ms.p99 < 50 && scrape.warm_ms.p99 < 50 && scrape.busy_ms.p99 < 50),
        overhead_at_most_3_percent: verdict(ratio >= 0.97),
      },
    };
    const file = writeResult(RESULT_NAME, result);
    console.log(
      `\nscrape p99: cold ${scrape.cold_ms.p99} ms, warm ${scrape.warm_ms.p99} ms, busy ${scrape.busy_ms.p99} ms (target < 50 ms: ${result.targets.scrape_p99_below_50_ms})`,
    );
    console.log(
      `user list: with metrics ${round(withRps)} req/s vs without ${round(withoutRps)} → ${round(ratio * 100)} % (target ≥ 97 %: ${result.targets.overhead_at_most_3_percent})`,
    );
    console.log(
      `CPU per request: with ${result.figures.with_cpu_ms_per_request} ms vs without ${result.figures.without_cpu_ms_per_request} ms → ${result.figures.with_cpu_percent_of_without} %`,
    );
    console.log(`failed requests: ${failures}\nwrote ${file}`);
  } finally {
    await withApp.close();
    await withoutApp.close();
    await database.close();
  }
}

await main();
