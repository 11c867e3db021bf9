/**
 * OpenID provider: p99 of the token endpoint (refresh-token grants, a confidential app, rotation on)
 * at a steady probe rate, alone and during a login burst (many concurrent `POST /api/v1/auth`, each
 * an Argon2id verification on libuv's thread pool), in alternating rounds on the real API. Target:
 * p99 during the burst < 2 × p99 alone.
 *
 * The probe is a few refresh-token chains (lib/oidc.ts `runChains`, a separate process) capped at
 * BENCH_PROBE_RATE grants/s overall, so it measures latency without loading the server itself; the
 * burst is autocannon (lib/load.mjs, another process) signing 16 users in over BENCH_CONCURRENCY
 * connections for the whole round.
 *
 *   npx tsx oidc-token-burst.ts          (from bench/; see README)
 *
 * Env: BENCH_CONCURRENCY (login connections, default 16), BENCH_PROBE_CHAINS (default 4),
 *      BENCH_PROBE_RATE (grants/s, default 40), BENCH_DURATION (s per round, default 8),
 *      BENCH_ROUNDS (default 3), BENCH_LOG_LEVEL (default info), BENCH_RESULT_NAME.
 */
import { loadavg } from 'node:os';
import { machineInfo, round, runLoad, verdict, writeResult } from './lib/common.ts';
import { ADMIN_PASSWORD, type ChainSummary, runChains, seedRefreshTokens, setupOidcBench } from './lib/oidc.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PROBE_CHAINS = Number(process.env.BENCH_PROBE_CHAINS ?? 4);
const PROBE_RATE = Number(process.env.BENCH_PROBE_RATE ?? 40);
const DURATION = Math.min(30, Number(process.env.BENCH_DURATION ?? 8));
const ROUNDS = Math.max(1, Math.min(10, Number(process.env.BENCH_ROUNDS ?? 3)));
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const RESULT_NAME = process.env.BENCH_RESULT_NAME ?? 'oidc-token-burst';
const DB_NAME = 'palisade_bench_oidc_burst';
const LOGIN_USERS = 16;

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(`oidc-token-burst: ${machine.cpus} CPUs, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);
  const bench = await setupOidcBench(DB_NAME, LOG_LEVEL);
  try {
    // Login users sharing the admin's password hash (several, as bench/login.ts: one account's
    // sessions and lockout counters are not the point).
    await bench.pool.query(
      `insert into users (username, first_name, last_name, email, password_hash)
       select 'login' || i, 'Login', 'User' || i, 'login' || i || '@bench.example', (select password_hash from users where username = 'admin')
       from generate_series(1, ${LOGIN_USERS}) i`,
    );
    const probeLogin = await bench.app.inject({
      method: 'POST',
      url: '/api/v1/auth',
      payload: { username: 'login1', password: ADMIN_PASSWORD },
    });
    if (probeLogin.statusCode !== 200) throw new Error(`login failed: ${probeLogin.statusCode} ${probeLogin.body}`);
    const provider = await bench.app.oidc.provider();
    const tokenUrl = `${bench.apiUrl}/api/v1/oidc/token`;
    const probe = async (duration: number) =>
      runChains({
        url: tokenUrl,
        basic: bench.basic,
        tokens: await seedRefreshTokens(provider, bench, PROBE_CHAINS),
        duration,
        rate: PROBE_RATE,
      });
    const burst = (duration: number) =>
      runLoad({
        url: `${bench.apiUrl}/api/v1/auth`,
        connections: CONCURRENCY,
        duration,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        bodies: Array.from({ length: LOGIN_USERS }, (_, i) => JSON.stringify({ username: `login${i + 1}`, password: ADMIN_PASSWORD })),
      });

    // Warm-up: both paths, 2 s.
    const [warmProbe] = await Promise.all([probe(2), burst(2)]);
    if (warmProbe.failures) throw new Error(`token probe failed: ${warmProbe.first_failure}`);

    const alone: ChainSummary[] = [];
    const during: ChainSummary[] = [];
    const logins: Awaited<ReturnType<typeof burst>>[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      alone.push(await probe(DURATION));
      // The burst starts first and outlasts the probe, so every probe request meets it.
      const burstRun = burst(DURATION + 2);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      during.push(await probe(DURATION));
      logins.push(await burstRun);
      const a = alone[r];
      const d = during[r];
      const l = logins[r];
      console.log(
        `round ${r + 1}: token p99 alone ${a?.latency_ms.p99} ms (${a?.grants_per_s}/s), during burst ${d?.latency_ms.p99} ms (${d?.grants_per_s}/s), logins ${l?.req_per_s}/s (p99 ${l?.latency_ms.p99} ms), load ${loadavg()[0]?.toFixed(2)}`,
      );
    }

    const mean = (values: number[]) => values.reduce((acc, v) => acc + v, 0) / values.length;
    const aloneP99 = mean(alone.map((s) => s.latency_ms.p99));
    const duringP99 = mean(during.map((s) => s.latency_ms.p99));
    const ratio = duringP99 / aloneP99;
    const failures = [...alone, ...during].reduce((acc, s) => acc + s.failures, 0);
    const loginNon2xx = logins.reduce((acc, l) => acc + l.status.non2xx, 0);
    const summary = (list: ChainSummary[]) => ({
      p99_ms_mean_of_rounds: round(mean(list.map((s) => s.latency_ms.p99)), 2),
      p50_ms_mean_of_rounds: round(mean(list.map((s) => s.latency_ms.p50)), 2),
      grants_per_s: round(mean(list.map((s) => s.grants_per_s))),
      rounds: list.map((s) => ({ p50_ms: s.latency_ms.p50, p99_ms: s.latency_ms.p99, max_ms: s.latency_ms.max, grants: s.grants })),
    });
    const result = {
      machine,
      login_connections: CONCURRENCY,
      probe: { chains: PROBE_CHAINS, rate_per_s: PROBE_RATE },
      duration_s: DURATION,
      rounds: ROUNDS,
      token_alone: summary(alone),
      token_during_login_burst: summary(during),
      logins: {
        req_per_s: round(mean(logins.map((l) => l.req_per_s))),
        p99_ms: Math.max(...logins.map((l) => l.latency_ms.p99)),
        non2xx: loginNon2xx,
      },
      p99_ratio: round(ratio, 3),
      round_ratios: during.map((d, i) => round(d.latency_ms.p99 / (alone[i]?.latency_ms.p99 ?? 1), 3)),
      failures,
      load_at_end: loadavg().map((l) => round(l, 2)),
      target: 'token endpoint p99 during a login burst < 2 × its p99 alone (mean of the rounds’ p99s)',
      verdict: verdict(ratio < 2 && failures === 0 && loginNon2xx === 0),
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`written to ${writeResult(RESULT_NAME, result)}`);
  } finally {
    await bench.app.close();
    await bench.database.close();
  }
}

await main();
