/**
 * TOTP sign-in step: `POST /api/v1/auth/totp/verify` req/s against `GET /api/v1/me` req/s in the
 * same run, same connections. Target: verify ≥ 50 % of `/me` (the step is a cheap route: no Argon2,
 * one sealed secret opened, three HMAC-SHA1s, the lockout counters, the session swap and the
 * login event).
 *
 * Feeding valid codes: a code (time step) is accepted once per user, so each request is a
 * different user with its own pending-MFA session (BENCH_USERS of them, seeded with SQL). All of
 * them share one TOTP secret, so every request carries the same code, that of the next time step:
 * it stays inside the ±1-step window for at least 60 s, and each user accepts it once. Requests
 * rotate through the pending sessions' cookies, one each (bench/lib/load.mjs `cookieSequence`).
 *
 * The two routes run in alternating rounds (`/me`, verify, `/me`, verify, …) and the ratio is
 * taken over all rounds: on a machine shared with other work the load changes within a minute,
 * and one long run of each compared a quiet `/me` with a busy verify (or the reverse).
 *
 *   npx tsx totp.ts          (from bench/; see README)
 *
 * Env: BENCH_CONNECTIONS (default 10), BENCH_DURATION (s per round, default 8), BENCH_ROUNDS
 *      (default 3), BENCH_USERS (default 40,000: more than the verify requests of all rounds),
 *      BENCH_LOG_LEVEL (default info).
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import type { Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import { SecretBox } from '../apps/api/src/lib/crypto.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import { machineInfo, recreateDatabase, round, runLoad, verdict, writeResult } from './lib/common.ts';

const apiRequire = createRequire(new URL('../apps/api/package.json', import.meta.url));
const { generateSync } = (await import(apiRequire.resolve('otplib'))) as typeof import('../apps/api/node_modules/otplib');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Math.min(30, Number(process.env.BENCH_DURATION ?? 8));
const ROUNDS = Math.max(1, Math.min(10, Number(process.env.BENCH_ROUNDS ?? 3)));
const USERS = Number(process.env.BENCH_USERS ?? 40_000);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const DB_NAME = 'palisade_bench_totp';
const ADMIN_PASSWORD = 'Bench-Admin-1!';
const SECRET_KEY = 'bench-totp-instance-secret-0123456789';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/** `count` users with TOTP enabled (one shared secret), each with a pending-MFA session `bench-<n>`. */
async function seed(pool: Pool, count: number): Promise<void> {
  const sealed = SecretBox.fromSecret(SECRET_KEY).encrypt(TOTP_SECRET);
  await pool.query(
    `insert into users (username, first_name, last_name, email, mfa_enabled, mfa_method)
     select 'totp' || g, 'Bench', 'User' || g, 'totp' || g || '@bench.example', true, 'totp' from generate_series(1, $1::int) g`,
    [count],
  );
  await pool.query(`insert into mfa_methods (user_id, method) select id, 'totp' from users where username like 'totp%'`);
  await pool.query(`insert into mfa_totp (user_id, secret) select id, $1 from users where username like 'totp%'`, [sealed]);
  await pool.query(
    `insert into sessions (id, user_id, state, expires_at)
     select encode(sha256(convert_to('bench-' || substr(username, 5), 'UTF8')), 'hex'), id, 'mfa_pending', now() + interval '1 hour'
     from users where username like 'totp%'`,
  );
  await pool.query('vacuum analyze');
}

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(`totp: ${machine.cpus} CPUs, ${machine.ram_gb} GB, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);
  const url = await recreateDatabase(DB_NAME);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  const pool = (database.db as unknown as { $client: Pool }).$client;
  const seedStart = Date.now();
  await seed(pool, USERS);
  console.log(`seeded ${USERS} users with TOTP and a pending session each in ${Date.now() - seedStart} ms`);

  const env = parseEnv({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL, HOST: '127.0.0.1', PORT: '0', SECRET_KEY });
  const app = await buildApp({
    env,
    database,
    secretKey: SECRET_KEY,
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, file: '/dev/null' },
    checkResponses: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  try {
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    if (login.statusCode !== 200) throw new Error(`admin login failed: ${login.statusCode} ${login.body}`);
    const adminCookie = String(login.headers['set-cookie']).split(';')[0] ?? '';

    // The next step's code: valid (±1 step) from now for at least 60 s; taken again for each run.
    const nextCode = () => generateSync({ secret: TOTP_SECRET, epoch: Math.floor(Date.now() / 1000) + 30 });
    // Warm-up on the last users (JIT, pools); the measured run takes the sessions from the first.
    const WARM_USERS = 4000;
    const prefix = 'palisade_session=bench-';
    const target = `http://127.0.0.1:${port}`;
    const verifyConfig = () => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: nextCode() }),
    });
    await runLoad({
      url: `${target}/api/v1/auth/totp/verify`,
      connections: CONNECTIONS,
      duration: 2,
      ...verifyConfig(),
      cookieSequence: { prefix, from: USERS - WARM_USERS + 1 },
    });
    await runLoad({ url: `${target}/api/v1/me`, connections: CONNECTIONS, duration: 2, headers: { cookie: adminCookie } });

    type Run = Awaited<ReturnType<typeof runLoad>>;
    const meRuns: Run[] = [];
    const verifyRuns: Run[] = [];
    let nextUser = 1;
    for (let r = 0; r < ROUNDS; r++) {
      meRuns.push(
        await runLoad({ url: `${target}/api/v1/me`, connections: CONNECTIONS, duration: DURATION, headers: { cookie: adminCookie } }),
      );
      const verify = await runLoad({
        url: `${target}/api/v1/auth/totp/verify`,
        connections: CONNECTIONS,
        duration: DURATION,
        ...verifyConfig(),
        cookieSequence: { prefix, from: nextUser },
      });
      verifyRuns.push(verify);
      // Requests still in flight when a round stops took a cookie too.
      nextUser += verify.requests_total + CONNECTIONS * 4;
      const roundRatio = verify.req_per_s / (meRuns[r]?.req_per_s ?? 1);
      console.log(
        `round ${r + 1}: /me ${round(meRuns[r]?.req_per_s ?? 0)} req/s, verify ${round(verify.req_per_s)} req/s, ratio ${round(roundRatio, 3)}, load ${loadavg()[0]?.toFixed(2)}`,
      );
    }
    if (nextUser > USERS - WARM_USERS) console.warn('more requests than pending sessions: raise BENCH_USERS');
    const sum = (runs: Run[], f: (r: Run) => number) => runs.reduce((acc, r) => acc + f(r), 0);
    const meRate = sum(meRuns, (r) => r.req_per_s) / ROUNDS;
    const verifyRate = sum(verifyRuns, (r) => r.req_per_s) / ROUNDS;
    const ratio = verifyRate / meRate;
    const non2xx = { me: sum(meRuns, (r) => r.status.non2xx), verify: sum(verifyRuns, (r) => r.status.non2xx) };
    const met = ratio >= 0.5 && non2xx.verify === 0 && non2xx.me === 0;
    const result = {
      machine,
      connections: CONNECTIONS,
      duration_s: DURATION,
      rounds: ROUNDS,
      users: USERS,
      me: { req_per_s: round(meRate), p99_ms: Math.max(...meRuns.map((r) => r.latency_ms.p99)), non2xx: non2xx.me },
      totp_verify: {
        req_per_s: round(verifyRate),
        p99_ms: Math.max(...verifyRuns.map((r) => r.latency_ms.p99)),
        non2xx: non2xx.verify,
        total: sum(verifyRuns, (r) => r.requests_total),
      },
      round_ratios: verifyRuns.map((r, i) => round(r.req_per_s / (meRuns[i]?.req_per_s ?? 1), 3)),
      ratio: round(ratio, 3),
      load_at_end: loadavg().map((l) => round(l, 2)),
      target: 'verify req/s ≥ 50 % of GET /me req/s (mean over alternating rounds)',
      verdict: verdict(met),
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`written to ${writeResult('totp', result)}`);
  } finally {
    await app.close();
    await database.close();
  }
}

await main();
