/**
 * The cost of recording domain events (ADR-005) on a write route: `PUT /api/v1/user/:username`
 * (admin session, each request changes the first name, so each records `user.modified` in the
 * update's statement) with events recorded as the product does, against the same app with the
 * event recording switched off in this process (a bench-only switch: `EventsRepo.prototype.insert`
 * replaced by a no-op and `EventsRepo.prototype.withEvents` returning the change's statement
 * alone, so the request does everything else the same). Alternating rounds on
 * one app and one database, so the machine's noise hits both. Target (issue 9 §6): with events
 * ≥ 90 % of the req/s without.
 *
 *   bench/node_modules/.bin/tsx bench/events-cost.ts          (from the repo root)
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (10), BENCH_ROUNDS (3), BENCH_LOG_LEVEL (info).
 * Experiment (not the product; results go to results/events-cost-no-notify.json): BENCH_NO_NOTIFY=1
 * disables the `events_notify` trigger, to see what the commit-time NOTIFY costs.
 */
import type { Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import { EventsRepo } from '../apps/api/src/modules/events/events.repo.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import { machineInfo, recreateDatabase, round, runLoad, runLoadMeasured, verdict, writeResult } from './lib/common.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Math.max(1, Math.min(5, Number(process.env.BENCH_ROUNDS ?? 3)));
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const DB_NAME = 'palisade_bench_events_cost';
const ADMIN_PASSWORD = 'Bench-Admin-1!';
const TARGET = 'bench-target';
const NO_NOTIFY = process.env.BENCH_NO_NOTIFY === '1';
const RESULT_NAME = NO_NOTIFY ? 'events-cost-no-notify' : 'events-cost';

/** The switch: while false, the event insert is skipped (everything else in the transaction runs). */
let recording = true;
const realInsert = EventsRepo.prototype.insert;
EventsRepo.prototype.insert = function insert(this: EventsRepo, rows) {
  return recording ? realInsert.call(this, rows) : Promise.resolve();
};
const realWithEvents = EventsRepo.prototype.withEvents;
EventsRepo.prototype.withEvents = function withEvents(this: EventsRepo, statement, rows) {
  return recording ? realWithEvents.call(this, statement, rows) : statement;
};

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(`events-cost: ${machine.cpus} CPUs, ${machine.ram_gb} GB, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);
  const url = await recreateDatabase(DB_NAME);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  const pool = (database.db as unknown as { $client: Pool }).$client;
  if (NO_NOTIFY) await pool.query('alter table events disable trigger events_notify');

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
    const base = {
      username: TARGET,
      first_name: 'Bench',
      last_name: 'Target',
      email: 'bench-target@example.com',
      password: 'Bench-User-1!x',
    };
    const created = await app.inject({ method: 'POST', url: '/api/v1/user', headers: { cookie }, payload: base });
    if (created.statusCode !== 201) throw new Error(`create failed: ${created.statusCode} ${created.body}`);
    const { password: _password, ...update } = base;
    // 200 first names in turn (the load generator takes them on its command line): consecutive updates change the user, so each records its event.
    const bodies = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ ...update, first_name: `Bench${i}`, is_active: true, groups: [] }),
    );
    const check = await app.inject({
      method: 'PUT',
      url: `/api/v1/user/${TARGET}`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: bodies[1],
    });
    if (check.statusCode !== 200) throw new Error(`update failed: ${check.statusCode} ${check.body}`);
    const target = {
      url: `http://127.0.0.1:${port}/api/v1/user/${TARGET}`,
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      bodies,
      connections: CONNECTIONS,
    };
    const eventCount = async () => Number((await pool.query(`select count(*) as n from events where type = 'user.modified'`)).rows[0].n);

    console.log('warm-up (3 s each)…');
    recording = true;
    await runLoad({ ...target, duration: 3 });
    recording = false;
    await runLoad({ ...target, duration: 3 });

    type Run = Awaited<ReturnType<typeof runLoadMeasured>> & { events_recorded: number };
    const measure = async (withEvents: boolean): Promise<Run> => {
      recording = withEvents;
      const before = await eventCount();
      const run = await runLoadMeasured({ ...target, duration: DURATION }, DB_NAME);
      return { ...run, events_recorded: (await eventCount()) - before };
    };
    const rounds: { with: Run; without: Run }[] = [];
    const line = (name: string, r: Run) =>
      `${name} ${round(r.summary.req_per_s)} req/s (p50 ${r.summary.latency_ms.p50} ms, p99 ${r.summary.latency_ms.p99} ms, ` +
      `CPU/req ${r.cpu_per_request_ms.self_ms} ms node + ${r.cpu_per_request_ms.postgres_ms} ms pg, events ${r.events_recorded}, non2xx ${r.summary.status.non2xx})`;
    for (let i = 0; i < ROUNDS; i++) {
      const first = await measure(i % 2 === 0);
      const second = await measure(i % 2 !== 0);
      const pair = i % 2 === 0 ? { with: first, without: second } : { with: second, without: first };
      rounds.push(pair);
      console.log(`round ${i + 1}:\n  ${line('with events   ', pair.with)}\n  ${line('without events', pair.without)}`);
    }
    recording = true;
    const mean = (f: (r: (typeof rounds)[number]) => number) => rounds.reduce((s, r) => s + f(r), 0) / rounds.length;
    const withRps = mean((r) => r.with.summary.req_per_s);
    const withoutRps = mean((r) => r.without.summary.req_per_s);
    const cost = 1 - withRps / withoutRps;
    const failures = rounds.reduce(
      (n, r) => n + [r.with, r.without].reduce((m, x) => m + x.summary.status.non2xx + x.summary.errors, 0),
      0,
    );
    const brief = (r: Run) => ({
      req_per_s: round(r.summary.req_per_s),
      latency_ms: r.summary.latency_ms,
      requests: r.summary.requests_total,
      events_recorded: r.events_recorded,
      non2xx: r.summary.status.non2xx,
      errors: r.summary.errors,
      cpu_per_request_ms: r.cpu_per_request_ms,
    });
    const result = {
      benchmark: 'events-cost',
      command: `${NO_NOTIFY ? 'BENCH_NO_NOTIFY=1 ' : ''}bench/node_modules/.bin/tsx bench/events-cost.ts`,
      notify_trigger: !NO_NOTIFY,
      machine,
      setup: {
        database: 'PostgreSQL (pg pool of 10, the API default)',
        request: `PUT /api/v1/user/${TARGET} (admin session; 200 bodies in turn, each a new first name)`,
        without:
          'the same app with EventsRepo.prototype.insert a no-op and EventsRepo.prototype.withEvents returning the statement alone, in the bench process (no event row, no NOTIFY)',
        connections: CONNECTIONS,
        duration_s: DURATION,
        rounds: ROUNDS,
        api_log_level: LOG_LEVEL,
        aggregation: 'req/s: mean over rounds',
      },
      rounds: rounds.map((r) => ({ with_events: brief(r.with), without_events: brief(r.without) })),
      figures: {
        with_events_req_per_s: round(withRps),
        without_events_req_per_s: round(withoutRps),
        cost_percent: round(cost * 100),
        with_events_cpu_ms_per_request: round(
          mean((r) => r.with.cpu_per_request_ms.total_ms),
          3,
        ),
        without_events_cpu_ms_per_request: round(
          mean((r) => r.without.cpu_per_request_ms.total_ms),
          3,
        ),
        failed_requests: failures,
      },
      targets: { cost_at_most_10_percent: verdict(cost <= 0.1) },
    };
    const file = writeResult(RESULT_NAME, result);
    console.log(
      `\nwith events ${result.figures.with_events_req_per_s} req/s vs without ${result.figures.without_events_req_per_s} req/s → cost ${result.figures.cost_percent} % (target ≤ 10 %: ${result.targets.cost_at_most_10_percent})`,
    );
    console.log(`failed requests: ${failures}\nwrote ${file}`);
  } finally {
    await app.close();
    await database.close();
  }
}

await main();
