/**
 * Shared helpers for the benchmarks: machine description, result files, a bench database on the
 * local PostgreSQL, a free loopback port and the out-of-process load generator (lib/load.mjs).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = join(BENCH_DIR, '..');
export const RESULTS_DIR = join(BENCH_DIR, 'results');

/** Server-level URL (database `postgres`) of a role with CREATEDB; override with BENCH_ADMIN_DATABASE_URL. */
export const ADMIN_DATABASE_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://palisade:palisade@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops and creates `name` (must start with palisade_bench_) and returns its URL. */
export async function recreateDatabase(name: string): Promise<string> {
  if (!/^palisade_bench_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to touch database ${name}`);
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}

export async function postgresVersion(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  try {
    await client.connect();
    const { rows } = await client.query<{ v: string }>('select version() as v');
    return rows[0]?.v;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Other busy processes right now (top CPU users, excluding this process tree's own load). */
function busyProcesses(): string[] {
  try {
    const out = execFileSync('ps', ['-eo', 'pid,pcpu,rss,args', '--sort=-pcpu', '--no-headers'], { encoding: 'utf8' });
    return out
      .split('\n')
      .filter(Boolean)
      .map((line) => line.trim().replace(/\s+/g, ' '))
      .filter((line) => Number(line.split(' ')[1]) >= 5 && !line.includes(' ps -eo'))
      .slice(0, 8)
      .map((line) => line.slice(0, 160));
  } catch {
    return [];
  }
}

export interface MachineInfo {
  date_utc: string;
  cpus: number;
  cpu_model: string;
  ram_gb: number;
  node: string;
  postgres?: string | undefined;
  loadavg_1_5_15: number[];
  uv_threadpool_size: string;
  busy_processes_at_start: string[];
}

export async function machineInfo(withPostgres = true): Promise<MachineInfo> {
  return {
    date_utc: new Date().toISOString(),
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    ram_gb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    ...(withPostgres ? { postgres: await postgresVersion() } : {}),
    loadavg_1_5_15: os.loadavg().map((v) => Math.round(v * 100) / 100),
    uv_threadpool_size: process.env.UV_THREADPOOL_SIZE ?? '4 (default)',
    busy_processes_at_start: busyProcesses(),
  };
}

/** Writes bench/results/<name>.json (a summary, not raw samples) and returns its path. */
export function writeResult(name: string, data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface LoadConfig {
  url: string;
  connections: number;
  /** Seconds; load.mjs caps it at 120. */
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Bodies used round-robin, one per request. */
  bodies?: string[];
  /** A cookie per request, `<prefix><from + n>` for the n-th request (not together with `bodies`). */
  cookieSequence?: { prefix: string; from: number };
  /** Overall request rate cap (req/s), for probes that must not add load themselves. */
  rate?: number;
}

export interface LoadSummary {
  duration_s: number;
  connections: number;
  requests_total: number;
  req_per_s: number;
  req_per_s_stddev: number;
  latency_ms: { mean: number; p50: number; p90: number; p99: number; p99_9: number; max: number };
  status: { '2xx': number; non2xx: number };
  errors: number;
  timeouts: number;
}

/** Runs autocannon in a child process (its own event loop) and returns its summary. */
export function runLoad(config: LoadConfig): Promise<LoadSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, 'lib', 'load.mjs'), JSON.stringify(config)], {
      cwd: BENCH_DIR,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), (config.duration + 60) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(guard);
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as LoadSummary);
      } catch (error) {
        reject(error);
      }
    });
  });
}

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

export const verdict = (met: boolean): 'met' | 'NOT met' => (met ? 'met' : 'NOT met');

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU ms (user + system) of the PostgreSQL backends connected to `database`, from /proc. */
function postgresBackendCpuMs(database: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!cmdline.startsWith('postgres:') || !cmdline.includes(` ${database} `)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // the process ended meanwhile
    }
  }
  return (ticks * 1000) / CLK_TCK;
}

/** CPU ms (user + system) of this process's main thread and of all its other threads, from /proc. */
function threadCpuMs(): { main_thread_ms: number; other_threads_ms: number } {
  let main = 0;
  let others = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      if (Number(tid) === process.pid) main += ticks;
      else others += ticks;
    } catch {
      // the thread ended meanwhile
    }
  }
  return { main_thread_ms: (main * 1000) / CLK_TCK, other_threads_ms: (others * 1000) / CLK_TCK };
}

export interface CpuSnapshot {
  self_ms: number;
  postgres_ms: number;
  /** The part of self_ms on the main (event loop) thread, and on the others (libuv pool: Argon2; V8 helpers), 10 ms ticks. */
  main_thread_ms: number;
  other_threads_ms: number;
}

/**
 * CPU time consumed so far by this process and by the PostgreSQL backends of `database`. Unlike
 * req/s, CPU per request hardly depends on what else runs on the machine, so it is the better
 * figure on a shared host. (Backends that exit between two snapshots are not counted; the pg pool
 * keeps its connections for the duration of a run.)
 */
export function cpuSnapshot(database?: string): CpuSnapshot {
  const u = process.cpuUsage();
  return { self_ms: (u.user + u.system) / 1000, postgres_ms: database ? postgresBackendCpuMs(database) : 0, ...threadCpuMs() };
}

export function cpuPer(before: CpuSnapshot, after: CpuSnapshot, count: number) {
  return {
    self_ms: round((after.self_ms - before.self_ms) / count, 3),
    postgres_ms: round((after.postgres_ms - before.postgres_ms) / count, 3),
    total_ms: round((after.self_ms - before.self_ms + after.postgres_ms - before.postgres_ms) / count, 3),
    main_thread_ms: round((after.main_thread_ms - before.main_thread_ms) / count, 3),
    other_threads_ms: round((after.other_threads_ms - before.other_threads_ms) / count, 3),
  };
}

/** runLoad with the CPU spent per request by this process and the database's backends. */
export async function runLoadMeasured(config: LoadConfig, database?: string) {
  const before = cpuSnapshot(database);
  const summary = await runLoad(config);
  const after = cpuSnapshot(database);
  return { summary, cpu_per_request_ms: cpuPer(before, after, Math.max(1, summary.requests_total)) };
}
