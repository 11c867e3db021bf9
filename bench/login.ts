/**
 * Login: raw Argon2id verifications/s (the API's own password module and parameters) against
 * `POST /api/v1/auth` logins/s at the same concurrency, then the p99 of other requests
 * (`GET /api/v1/health`, `GET /api/v1/me`) while a login burst runs.
 * Targets (ratios, one run): CPU per login ≤ 1.15 × the CPU of one raw verification (API process with
 * its hashing threads + PostgreSQL backends, from /proc — CPU time is far less noisy than throughput
 * on shared cores); logins/s ≥ 85 % of raw verifications/s; p99 of `GET /me` during a login burst
 * ≤ 3 × its idle p99.
 *
 *   npx tsx bench/login.ts          (from bench/; see README)
 *
 * Env: BENCH_CONCURRENCY (default 8), BENCH_DURATION (s, default 10), BENCH_WARMUP (s before each
 *      measurement, default 10; it was 2 before 2026-11-24 09:00), BENCH_LOG_LEVEL (default info),
 *      BENCH_RESULT_NAME (result file, default login). Argon2 runs on the API's own hashing threads
 *      (lib/argon2-workers.ts), no longer on libuv's pool: UV_THREADPOOL_SIZE does not change it.
 */
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { hashingThreadIds } from '../apps/api/src/lib/argon2-workers.ts';
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from '../apps/api/src/lib/password.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import {
  cpuPer,
  cpuSnapshot,
  machineInfo,
  percentile,
  recreateDatabase,
  round,
  runLoad,
  runLoadMeasured,
  verdict,
  writeResult,
} from './lib/common.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const DURATION = Math.min(60, Number(process.env.BENCH_DURATION ?? 10));
/**
 * Seconds of raw verifications, then of logins, before each is measured. A login's JavaScript
 * (Fastify, pg, pino, the route) is spread over many functions that V8 optimises only after some
 * thousand calls; with 2 s (~300 logins) the measured window still paid for that compilation (on
 * V8's helper threads) and ran part of the code unoptimised on the event loop, a start-up cost a
 * running server does not pay per login. Raw and login warm up alike.
 */
const WARMUP = Math.min(60, Number(process.env.BENCH_WARMUP ?? 10));
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const LOGIN_USERS = 16;
const ADMIN_PASSWORD = 'Bench-Admin-1!';
const USER_PASSWORD = 'Bench-User-1!';
const PROBE_RATE = 20;
const DB_NAME = 'palisade_bench_login'; // req/s per probe: light enough not to add load of its own

type ThreadCpu = { hashing_ms: number; helpers_ms: number };
const TICK_MS = 1000 / (Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);

/**
 * CPU ms (user + system, 10 ms ticks) of this process's threads other than the event loop, split
 * into the API's hashing threads (lib/argon2-workers.ts, by thread id) and all the rest (V8's
 * platform threads, which mark and sweep the garbage the event loop makes, and libuv's pool).
 * Comparing hashing threads with hashing threads keeps the raw-vs-login comparison like with like.
 */
function threadGroupsCpuMs(): ThreadCpu {
  const hashing = new Set(hashingThreadIds());
  let hashingTicks = 0;
  let helperTicks = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    if (Number(tid) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      if (hashing.has(Number(tid))) hashingTicks += ticks;
      else helperTicks += ticks;
    } catch {
      // the thread ended meanwhile
    }
  }
  return { hashing_ms: hashingTicks * TICK_MS, helpers_ms: helperTicks * TICK_MS };
}

const threadGroupsPer = (before: ThreadCpu, after: ThreadCpu, count: number): ThreadCpu => ({
  hashing_ms: round((after.hashing_ms - before.hashing_ms) / count, 3),
  helpers_ms: round((after.helpers_ms - before.helpers_ms) / count, 3),
});

/** `CONCURRENCY` loops of verifyPassword for `seconds`; returns verifications/s and latencies. */
async function rawVerify(hash: string, seconds: number) {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const cpuBefore = cpuSnapshot();
  const groupsBefore = threadGroupsCpuMs();
  const started = performance.now();
  const loop = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      if (!(await verifyPassword(hash, USER_PASSWORD))) throw new Error('verify failed');
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuPer(cpuBefore, cpuSnapshot(), Math.max(1, latencies.length));
  const groups = threadGroupsPer(groupsBefore, threadGroupsCpuMs(), Math.max(1, latencies.length));
  latencies.sort((a, b) => a - b);
  return {
    cpu_ms_per_verification: cpu.self_ms,
    cpu_ms_per_verification_threads: { main: cpu.main_thread_ms, others: cpu.other_threads_ms, ...groups },
    verifications: latencies.length,
    elapsed_s: round(elapsed, 2),
    per_s: round(latencies.length / elapsed),
    latency_ms: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) },
  };
}

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(
    `login: ${machine.cpus} CPUs, node ${machine.node}, UV_THREADPOOL_SIZE ${machine.uv_threadpool_size}, concurrency ${CONCURRENCY}, load ${machine.loadavg_1_5_15.join(' ')}`,
  );

  const url = await recreateDatabase(DB_NAME);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent' });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  const pool = (database.db as unknown as { $client: Pool }).$client;
  const hash = await hashPassword(USER_PASSWORD);
  await pool.query(
    `insert into users (username, first_name, last_name, email, password_hash)
     select 'login' || lpad(i::text, 2, '0'), 'Login', 'User' || i, 'login' || i || '@example.com', $1
     from generate_series(1, ${LOGIN_USERS}) i`,
    [hash],
  );

  // 1. Raw Argon2id, in this process and on its libuv pool (where the API runs it too).
  await rawVerify(hash, WARMUP);
  const raw = await rawVerify(hash, DURATION);
  console.log(
    `raw Argon2id verify: ${raw.per_s}/s at concurrency ${CONCURRENCY} (p50 ${raw.latency_ms.p50} ms, p99 ${raw.latency_ms.p99} ms)`,
  );

  const env = parseEnv({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL, HOST: '127.0.0.1', PORT: '0' });
  const app = await buildApp({
    env,
    database,
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, file: '/dev/null' },
    checkResponses: false, // as main.ts runs it
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  try {
    const bodies = Array.from({ length: LOGIN_USERS }, (_, i) =>
      JSON.stringify({ username: `login${String(i + 1).padStart(2, '0')}`, password: USER_PASSWORD }),
    );
    const loginLoad = {
      url: `${base}/api/v1/auth`,
      method: 'POST',
      connections: CONCURRENCY,
      headers: { 'content-type': 'application/json' },
      bodies,
    };
    const probeLogin = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'login01', password: USER_PASSWORD } });
    if (probeLogin.statusCode !== 200) throw new Error(`login failed: ${probeLogin.statusCode} ${probeLogin.body}`);
    const cookie = String(probeLogin.headers['set-cookie']).split(';')[0] ?? '';

    // 2. Logins over HTTP at the same concurrency.
    await runLoad({ ...loginLoad, duration: WARMUP });
    const groupsBefore = threadGroupsCpuMs();
    const measured = await runLoadMeasured({ ...loginLoad, duration: DURATION }, DB_NAME);
    const login = measured.summary;
    const loginsPerS = login.status['2xx'] / login.duration_s;
    const ratio = loginsPerS / raw.per_s;
    console.log(
      `POST /api/v1/auth: ${round(loginsPerS)} logins/s (${login.status['2xx']} ok, ${login.status.non2xx} non-2xx, ${login.errors} errors; p50 ${login.latency_ms.p50} ms, p99 ${login.latency_ms.p99} ms) → ${round(ratio * 100)} % of raw`,
    );
    const cpu = {
      ...measured.cpu_per_request_ms,
      ...threadGroupsPer(groupsBefore, threadGroupsCpuMs(), Math.max(1, login.requests_total)),
    };
    const cpuFactor = cpu.total_ms / raw.cpu_ms_per_verification;
    console.log(
      `CPU per login: ${cpu.self_ms} ms API process (event loop ${cpu.main_thread_ms}, hashing threads ${cpu.hashing_ms}, other threads ${cpu.helpers_ms}) + ${cpu.postgres_ms} ms PostgreSQL` +
        ` vs ${raw.cpu_ms_per_verification} ms per raw verification (event loop ${raw.cpu_ms_per_verification_threads.main}, hashing threads ${raw.cpu_ms_per_verification_threads.hashing_ms}, other threads ${raw.cpu_ms_per_verification_threads.helpers_ms}) → ×${round(cpuFactor, 2)}`,
    );

    // 3. Other requests: idle baseline, then during a login burst.
    const probes = (duration: number) => [
      runLoad({ url: `${base}/api/v1/health`, connections: 1, duration, rate: PROBE_RATE }),
      runLoad({ url: `${base}/api/v1/me`, connections: 1, duration, rate: PROBE_RATE, headers: { cookie } }),
    ];
    const [healthIdle, meIdle] = await Promise.all(probes(DURATION));
    const [burst, healthBurst, meBurst] = await Promise.all([runLoad({ ...loginLoad, duration: DURATION }), ...probes(DURATION)]);
    if (!healthIdle || !meIdle || !healthBurst || !meBurst) throw new Error('probe missing');
    console.log(
      `idle:         health p50 ${healthIdle.latency_ms.p50} / p99 ${healthIdle.latency_ms.p99} ms; me p50 ${meIdle.latency_ms.p50} / p99 ${meIdle.latency_ms.p99} ms`,
    );
    console.log(
      `login burst (${round(burst.status['2xx'] / burst.duration_s)} logins/s): health p50 ${healthBurst.latency_ms.p50} / p99 ${healthBurst.latency_ms.p99} ms; me p50 ${meBurst.latency_ms.p50} / p99 ${meBurst.latency_ms.p99} ms`,
    );

    const failures = login.status.non2xx + login.errors + burst.status.non2xx + burst.errors;
    const meFactor = meBurst.latency_ms.p99 / Math.max(1, meIdle.latency_ms.p99);
    const result = {
      benchmark: 'login',
      command: 'npx tsx bench/login.ts',
      machine,
      setup: {
        argon2: ARGON2_OPTIONS,
        concurrency: CONCURRENCY,
        duration_s: DURATION,
        warmup_s: WARMUP,
        login_users: LOGIN_USERS,
        database: 'PostgreSQL (pg pool of 10)',
        api_log_level: LOG_LEVEL,
        probe_rate_req_per_s: PROBE_RATE,
      },
      raw_verify: raw,
      http_login: {
        logins_per_s: round(loginsPerS),
        ok: login.status['2xx'],
        non2xx: login.status.non2xx,
        errors: login.errors,
        latency_ms: login.latency_ms,
        cpu_ms_per_login: cpu,
      },
      probes: {
        idle: { health: healthIdle.latency_ms, me: meIdle.latency_ms },
        during_login_burst: {
          logins_per_s: round(burst.status['2xx'] / burst.duration_s),
          health: healthBurst.latency_ms,
          me: meBurst.latency_ms,
          probe_non2xx: healthBurst.status.non2xx + meBurst.status.non2xx,
        },
      },
      figures: {
        raw_verifications_per_s: raw.per_s,
        logins_per_s: round(loginsPerS),
        ratio_percent: round(ratio * 100),
        cpu_ms_per_raw_verification: raw.cpu_ms_per_verification,
        cpu_ms_per_login: cpu.total_ms,
        cpu_factor: round(cpuFactor, 3),
        health_p99_during_burst_ms: healthBurst.latency_ms.p99,
        me_p99_idle_ms: meIdle.latency_ms.p99,
        me_p99_during_burst_ms: meBurst.latency_ms.p99,
        me_p99_factor: round(meFactor, 2),
        failed_logins: failures,
      },
      targets: {
        cpu_per_login_at_most_1_15_times_raw: verdict(cpuFactor <= 1.15),
        logins_at_least_85_percent_of_raw: verdict(ratio >= 0.85),
        me_p99_during_burst_at_most_3_times_idle: verdict(meFactor <= 3),
      },
    };
    const file = writeResult(process.env.BENCH_RESULT_NAME ?? 'login', result);
    console.log(
      `\nCPU per login ×${result.figures.cpu_factor} of a raw verification (target ≤ 1.15: ${result.targets.cpu_per_login_at_most_1_15_times_raw})`,
    );
    console.log(
      `logins ${result.figures.logins_per_s}/s vs raw ${raw.per_s}/s → ${result.figures.ratio_percent} % (target ≥ 85 %: ${result.targets.logins_at_least_85_percent_of_raw})`,
    );
    console.log(
      `GET /me p99: idle ${meIdle.latency_ms.p99} ms, during the burst ${meBurst.latency_ms.p99} ms → ×${result.figures.me_p99_factor} (target ≤ 3: ${result.targets.me_p99_during_burst_at_most_3_times_idle})`,
    );
    console.log(`failed logins: ${failures}\nwrote ${file}`);
  } finally {
    await app.close();
    await database.close();
  }
}

await main();
