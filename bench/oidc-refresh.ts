/**
 * OpenID provider: refresh-token grants (`POST /api/v1/oidc/token`, grant_type=refresh_token, a
 * confidential app with HTTP Basic, rotation on) per second on our Drizzle adapter against the SAME
 * oidc-provider configuration on its in-memory adapter, in the same run. Targets: API ≥ 50 % of the
 * memory-adapter provider's grants/s, and ≥ 300 grants per CPU-second (API process + PostgreSQL
 * backends, i.e. per core).
 *
 * Three servers in this process, one database:
 * - `api`: the real API (buildApp, the provider mounted ahead of Fastify's hooks, our adapter);
 * - `bare_db`: `createProvider` (the API's configuration) on a plain Node HTTP server, our adapter:
 *   isolates the Fastify mount's share;
 * - `bare_memory`: the same, with oidc-provider's in-memory adapter swapped in before first use
 *   (the app's client metadata stored in it). Accounts (`findAccount`, the ID token's claims) read
 *   the database in all three: only the adapter differs.
 *
 * Rotation consumes each refresh token, so every request of a chain uses the token the previous
 * answer returned (lib/oidc.ts `runChains`, a separate process); each round starts from fresh
 * tokens seeded through the provider's own models (Grant + RefreshToken, as the code grant does).
 * Variants run in alternating rounds so that the machine's load hits all alike.
 *
 * CPU per grant: this process (process.cpuUsage: only one variant runs at a time) plus the
 * PostgreSQL client backends of the bench database, each counted from its own /proc figure at the
 * round's start (lib/oidc.ts backendCpuDelta); autovacuum workers are reported apart
 * (`autovacuum_ms_per_grant`), as are the statements the pg driver sent per grant.
 *
 *   npx tsx oidc-refresh.ts          (from bench/; see README)
 *
 * Env: BENCH_CONNECTIONS (chains, default 10), BENCH_DURATION (s per round, default 8),
 *      BENCH_ROUNDS (default 3), BENCH_LOG_LEVEL (default info), BENCH_RESULT_NAME (default oidc-refresh).
 */
import { loadavg } from 'node:os';
import { machineInfo, round, verdict, writeResult } from './lib/common.ts';
import {
  type BareProvider,
  backendCpu,
  backendCpuDelta,
  bareProvider,
  type ChainSummary,
  checkpointCount,
  runChains,
  seedRefreshTokens,
  setupOidcBench,
  statementCount,
} from './lib/oidc.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Math.min(30, Number(process.env.BENCH_DURATION ?? 8));
const ROUNDS = Math.max(1, Math.min(10, Number(process.env.BENCH_ROUNDS ?? 3)));
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const RESULT_NAME = process.env.BENCH_RESULT_NAME ?? 'oidc-refresh';
const DB_NAME = 'palisade_bench_oidc_refresh';

async function main(): Promise<void> {
  const machine = await machineInfo();
  console.log(`oidc-refresh: ${machine.cpus} CPUs, ${machine.ram_gb} GB, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);
  const bench = await setupOidcBench(DB_NAME, LOG_LEVEL);
  const bare: BareProvider[] = [];
  try {
    const apiProvider = await bench.app.oidc.provider();
    const bareDb = await bareProvider(bench, false);
    const bareMemory = await bareProvider(bench, true);
    bare.push(bareDb, bareMemory);
    const variants = [
      { name: 'api', provider: apiProvider, url: `${bench.apiUrl}/api/v1/oidc/token` },
      { name: 'bare_db', provider: bareDb.provider, url: `${bareDb.url}/api/v1/oidc/token` },
      { name: 'bare_memory', provider: bareMemory.provider, url: `${bareMemory.url}/api/v1/oidc/token` },
    ] as const;

    // Warm-up (JIT, pools, key imports) of each, 2 s.
    for (const v of variants) {
      const warm = await runChains({
        url: v.url,
        basic: bench.basic,
        tokens: await seedRefreshTokens(v.provider, bench, CONNECTIONS),
        duration: 2,
      });
      if (warm.failures) throw new Error(`${v.name} warm-up failed: ${warm.first_failure}`);
    }

    type Measured = ChainSummary & {
      cpu_ms_per_grant: {
        self_ms: number;
        postgres_ms: number;
        total_ms: number;
        autovacuum_ms: number;
        backends_ended: number;
        statements: number;
        checkpoints: number;
      };
    };
    const runs: Record<(typeof variants)[number]['name'], Measured[]> = { api: [], bare_db: [], bare_memory: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const v of variants) {
        const tokens = await seedRefreshTokens(v.provider, bench, CONNECTIONS);
        const checkpointsBefore = await checkpointCount(bench.pool);
        const statementsBefore = statementCount();
        const cpuBefore = process.cpuUsage();
        const pgBefore = backendCpu(DB_NAME);
        const summary = await runChains({ url: v.url, basic: bench.basic, tokens, duration: DURATION });
        const pgDelta = backendCpuDelta(pgBefore, backendCpu(DB_NAME));
        const used = process.cpuUsage(cpuBefore);
        const checkpoints = (await checkpointCount(bench.pool)) - checkpointsBefore;
        const grants = Math.max(1, summary.grants);
        const selfMs = (used.user + used.system) / 1000 / grants;
        const postgresMs = pgDelta.backends_ms / grants;
        const cpu = {
          self_ms: round(selfMs, 3),
          postgres_ms: round(postgresMs, 3),
          total_ms: round(selfMs + postgresMs, 3),
          autovacuum_ms: round(pgDelta.autovacuum_ms / grants, 3),
          backends_ended: pgDelta.backends_ended,
          statements: round((statementCount() - statementsBefore - 1) / grants, 2),
          checkpoints,
        };
        runs[v.name].push({ ...summary, cpu_ms_per_grant: cpu });
      }
      const line = variants
        .map((v) => {
          const last = runs[v.name][r];
          const cpu = last?.cpu_ms_per_grant;
          return `${v.name} ${round(last?.grants_per_s ?? 0)}/s (p99 ${last?.latency_ms.p99} ms, ${cpu?.total_ms} CPU ms = ${cpu?.self_ms} + pg ${cpu?.postgres_ms}, ${cpu?.statements} stmts, ${cpu?.checkpoints} checkpoints)`;
        })
        .join(', ');
      console.log(`round ${r + 1}: ${line}, load ${loadavg()[0]?.toFixed(2)}`);
    }

    const mean = (list: Measured[], f: (m: Measured) => number) => list.reduce((acc, m) => acc + f(m), 0) / list.length;
    const figures = Object.fromEntries(
      variants.map((v) => {
        const list = runs[v.name];
        const cpuMs = mean(list, (m) => m.cpu_ms_per_grant.total_ms);
        return [
          v.name,
          {
            grants_per_s: round(mean(list, (m) => m.grants_per_s)),
            p99_ms: Math.max(...list.map((m) => m.latency_ms.p99)),
            cpu_ms_per_grant: {
              process: round(
                mean(list, (m) => m.cpu_ms_per_grant.self_ms),
                3,
              ),
              postgres: round(
                mean(list, (m) => m.cpu_ms_per_grant.postgres_ms),
                3,
              ),
              total: round(cpuMs, 3),
              autovacuum: round(
                mean(list, (m) => m.cpu_ms_per_grant.autovacuum_ms),
                3,
              ),
            },
            statements_per_grant: round(
              mean(list, (m) => m.cpu_ms_per_grant.statements),
              2,
            ),
            grants_per_cpu_second: round(1000 / cpuMs),
            failures: list.reduce((acc, m) => acc + m.failures, 0),
            first_failure: list.find((m) => m.first_failure)?.first_failure,
            rounds: list.map((m) => ({
              grants_per_s: m.grants_per_s,
              p99_ms: m.latency_ms.p99,
              cpu_ms: m.cpu_ms_per_grant.total_ms,
              process_ms: m.cpu_ms_per_grant.self_ms,
              postgres_ms: m.cpu_ms_per_grant.postgres_ms,
              autovacuum_ms: m.cpu_ms_per_grant.autovacuum_ms,
              backends_ended: m.cpu_ms_per_grant.backends_ended,
              checkpoints: m.cpu_ms_per_grant.checkpoints,
            })),
          },
        ];
      }),
    ) as unknown as Record<
      (typeof variants)[number]['name'],
      { grants_per_s: number; grants_per_cpu_second: number; failures: number; cpu_ms_per_grant: { total: number } }
    >;
    const ratio = figures.api.grants_per_s / figures.bare_memory.grants_per_s;
    const ratioBareDb = figures.bare_db.grants_per_s / figures.bare_memory.grants_per_s;
    const roundRatios = runs.api.map((m, i) => round(m.grants_per_s / (runs.bare_memory[i]?.grants_per_s ?? 1), 3));
    const failures = figures.api.failures + figures.bare_db.failures + figures.bare_memory.failures;
    const result = {
      machine,
      chains: CONNECTIONS,
      duration_s: DURATION,
      rounds: ROUNDS,
      figures,
      ratio_api_to_memory: round(ratio, 3),
      ratio_bare_db_to_memory: round(ratioBareDb, 3),
      round_ratios_api_to_memory: roundRatios,
      // The same comparison by CPU per grant (memory ÷ API), which the host's other load hardly moves.
      cpu_ratio_memory_to_api: round(figures.bare_memory.cpu_ms_per_grant.total / figures.api.cpu_ms_per_grant.total, 3),
      round_cpu_ratios_memory_to_api: runs.api.map((m, i) =>
        round((runs.bare_memory[i]?.cpu_ms_per_grant.total_ms ?? 0) / m.cpu_ms_per_grant.total_ms, 3),
      ),
      load_at_end: loadavg().map((l) => round(l, 2)),
      targets: {
        api_at_least_half_of_memory_adapter: verdict(ratio >= 0.5 && failures === 0),
        at_least_300_grants_per_cpu_second: verdict(figures.api.grants_per_cpu_second >= 300 && failures === 0),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`written to ${writeResult(RESULT_NAME, result)}`);
  } finally {
    for (const b of bare) await new Promise((resolve) => b.server.close(resolve));
    await bench.app.close();
    await bench.database.close();
  }
}

await main();
