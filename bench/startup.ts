/**
 * Startup and memory of the built API on the embedded database (PGlite):
 *   - first start on an empty DATA_DIR until GET /api/v1/health answers 200   (target ≤ 10 s)
 *   - idle RSS after start + a few requests, settled                           (target ≤ 250 MB)
 *   - restart on the existing DATA_DIR (informational)
 *
 *   npx tsx bench/startup.ts        (from bench/; builds apps/api/dist when it is missing)
 *
 * Env: BENCH_RUNS (default 3 first starts and 3 restarts), BENCH_SETTLE_S (default 5).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, machineInfo, recreateDatabase, REPO_ROOT, round, verdict, writeResult } from './lib/common.ts';

const RUNS = Math.max(1, Math.min(5, Number(process.env.BENCH_RUNS ?? 3)));
const SETTLE_S = Math.min(60, Number(process.env.BENCH_SETTLE_S ?? 5));
const ADMIN_PASSWORD = 'Bench-Admin-1!';
const MAIN = join(REPO_ROOT, 'apps/api/dist/main.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? Number.NaN);
}

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (user + system, all threads) the process has used so far, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

function duKb(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
}

interface StartResult {
  ready_ms: number;
  /** CPU the process used until ready: hardly affected by other load, unlike ready_ms. */
  cpu_until_ready_ms: number;
  logged_startup_ms?: number;
  rss_after_ready_mb: number;
  rss_idle_mb: number;
  rss_peak_mb: number;
  printed_generated_password: boolean;
  stop_ms: number;
  exit_code: number | null;
}

async function startOnce(dataDir: string, extraEnv: Record<string, string> = {}): Promise<StartResult> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    // stop_ms measures the close itself, not the drain a load balancer needs (SHUTDOWN_DRAIN_SECONDS).
    SHUTDOWN_DRAIN_SECONDS: '0',
    ...extraEnv,
  };
  // Restarts must not need a password; first starts print a generated one (checked below).
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [MAIN], { env, cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  try {
    let readyMs = Number.NaN;
    const deadline = started + 60_000;
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`API exited early (${child.exitCode}):\n${out}`);
      try {
        const res = await fetch(`${base}/api/v1/health`);
        if (res.status === 200) {
          readyMs = performance.now() - started;
          break;
        }
      } catch {
        // not listening yet
      }
      await sleep(20);
    }
    if (Number.isNaN(readyMs)) throw new Error(`API not ready within 60 s:\n${out}`);
    const pid = child.pid as number;
    const cpuUntilReady = cpuMs(pid);
    const rssAfterReady = statusKb(pid, 'VmRSS');

    // A few ordinary requests: log in (the generated first-start password, or reuse), browse.
    const generated = /password: (\S+)/.exec(out)?.[1];
    const password = generated ?? ADMIN_PASSWORD;
    const login = await fetch(`${base}/api/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    if (generated) {
      // Keep a known password for the restarts of this data dir.
      const res = await fetch(`${base}/api/v1/user/admin/password`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ new_password: ADMIN_PASSWORD }),
      });
      if (res.status !== 204) throw new Error(`set password failed: ${res.status}`);
    }
    for (const path of ['/api/v1/health', '/api/v1/settings_essentials', '/api/v1/openapi.json']) {
      await (await fetch(`${base}${path}`)).arrayBuffer();
    }
    const again = await fetch(`${base}/api/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const cookie2 = (again.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    for (const path of ['/api/v1/me', '/api/v1/user?per_page=50', '/api/v1/group', '/api/v1/settings', '/api/v1/info']) {
      const res = await fetch(`${base}${path}`, { headers: { cookie: cookie2 } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      await res.arrayBuffer();
    }
    await sleep(SETTLE_S * 1000);
    const rssIdle = statusKb(pid, 'VmRSS');
    const peak = statusKb(pid, 'VmHWM');
    const logged = /"startupMs":(\d+)/.exec(out)?.[1];

    const stopStart = performance.now();
    child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(15_000).then(() => 'timeout' as const)]);
    if (code === 'timeout') throw new Error('API did not stop within 15 s of SIGTERM');
    return {
      ready_ms: Math.round(readyMs),
      cpu_until_ready_ms: Math.round(cpuUntilReady),
      ...(logged ? { logged_startup_ms: Number(logged) } : {}),
      rss_after_ready_mb: round(rssAfterReady / 1024),
      rss_idle_mb: round(rssIdle / 1024),
      rss_peak_mb: round(peak / 1024),
      printed_generated_password: generated !== undefined,
      stop_ms: Math.round(performance.now() - stopStart),
      exit_code: code,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

async function main(): Promise<void> {
  const machine = await machineInfo(false);
  if (!existsSync(MAIN)) {
    console.log('apps/api/dist/main.js missing: building it (pnpm --filter @palisade/api build)');
    execFileSync('pnpm', ['--filter', '@palisade/api', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  const built = statSync(MAIN).mtime.toISOString();
  console.log(`startup: ${machine.cpus} CPUs, node ${machine.node}, dist built ${built}, load ${machine.loadavg_1_5_15.join(' ')}`);

  const first: (StartResult & { data_dir_kb: number })[] = [];
  const restart: StartResult[] = [];
  let postgres: StartResult | undefined;
  const dirs: string[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'palisade-bench-startup-'));
      dirs.push(dir);
      const r = await startOnce(join(dir, 'data'));
      first.push({ ...r, data_dir_kb: duKb(join(dir, 'data')) });
      console.log(
        `first start ${i + 1}: ready in ${r.ready_ms} ms (logged ${r.logged_startup_ms ?? '?'} ms, CPU ${r.cpu_until_ready_ms} ms), RSS ${r.rss_after_ready_mb} MB → idle ${r.rss_idle_mb} MB (peak ${r.rss_peak_mb} MB), stop ${r.stop_ms} ms`,
      );
    }
    const reused = join(dirs[0] as string, 'data');
    for (let i = 0; i < RUNS; i++) {
      const r = await startOnce(reused);
      restart.push(r);
      console.log(
        `restart ${i + 1}: ready in ${r.ready_ms} ms (CPU ${r.cpu_until_ready_ms} ms), RSS idle ${r.rss_idle_mb} MB (peak ${r.rss_peak_mb} MB)`,
      );
    }
    // For comparison (no target): the same binary on PostgreSQL, i.e. without the embedded database.
    const pgDir = mkdtempSync(join(tmpdir(), 'palisade-bench-startup-'));
    dirs.push(pgDir);
    const databaseUrl = await recreateDatabase('palisade_bench_startup');
    postgres = await startOnce(join(pgDir, 'data'), { DATABASE_URL: databaseUrl });
    console.log(
      `PostgreSQL (for comparison): ready in ${postgres.ready_ms} ms, RSS idle ${postgres.rss_idle_mb} MB (peak ${postgres.rss_peak_mb} MB)`,
    );
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }

  const max = (xs: number[]) => Math.max(...xs);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const firstMax = max(first.map((r) => r.ready_ms));
  const rssMax = max([...first, ...restart].map((r) => r.rss_idle_mb));
  const result = {
    benchmark: 'startup',
    command: 'npx tsx bench/startup.ts',
    machine,
    setup: {
      binary: 'node apps/api/dist/main.js',
      dist_built: built,
      database: 'embedded PGlite in a new temporary DATA_DIR',
      runs: RUNS,
      settle_s: SETTLE_S,
      requests_before_idle_rss:
        'health, 2 logins, set admin password, settings_essentials, openapi.json, me, user list, group list, settings, info',
    },
    first_start: first,
    restart,
    postgres_for_comparison: postgres,
    figures: {
      first_start_ready_ms_median: median(first.map((r) => r.ready_ms)),
      first_start_ready_ms_max: firstMax,
      restart_ready_ms_median: median(restart.map((r) => r.ready_ms)),
      restart_ready_ms_max: max(restart.map((r) => r.ready_ms)),
      first_start_cpu_ms_median: median(first.map((r) => r.cpu_until_ready_ms)),
      restart_cpu_ms_median: median(restart.map((r) => r.cpu_until_ready_ms)),
      first_start_idle_rss_mb_max: max(first.map((r) => r.rss_idle_mb)),
      restart_idle_rss_mb_max: max(restart.map((r) => r.rss_idle_mb)),
      idle_rss_mb_max: rssMax,
      peak_rss_mb_max: max([...first, ...restart].map((r) => r.rss_peak_mb)),
      data_dir_mb_after_first_start: round(max(first.map((r) => r.data_dir_kb)) / 1024),
      info_postgres_idle_rss_mb: postgres?.rss_idle_mb,
    },
    targets: {
      first_start_at_most_10_s: verdict(firstMax <= 10_000),
      idle_rss_at_most_250_mb: verdict(rssMax <= 250),
    },
  };
  const file = writeResult('startup', result);
  console.log(
    `\nfirst start: median ${result.figures.first_start_ready_ms_median} ms, max ${firstMax} ms (target ≤ 10 s: ${result.targets.first_start_at_most_10_s})`,
  );
  console.log(`restart: median ${result.figures.restart_ready_ms_median} ms, max ${result.figures.restart_ready_ms_max} ms`);
  console.log(
    `idle RSS: max ${rssMax} MB (target ≤ 250 MB: ${result.targets.idle_rss_at_most_250_mb}); peak ${result.figures.peak_rss_mb_max} MB`,
  );
  console.log(`wrote ${file}`);
}

await main();
