import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** Test database addresses and lifetimes. Tests (not src/) may read process.env directly. */
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://palisade:palisade@127.0.0.1:5432/postgres';

/**
 * Databases are named per test run: `palisade_test_<pid>_<start, base 36 ms>_<random>_…`. Several
 * engineers share one PostgreSQL, and two runs must not drop each other's template or workers; the
 * pid alone does not name a run (containers reuse PIDs), so a run also carries its start time and
 * a random part. global-setup sets PALISADE_TEST_RUN before the workers start; they inherit it.
 */
export function newRunId(): string {
  return `${process.pid}_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
}

export function runPrefix(): string {
  return `palisade_test_${process.env.PALISADE_TEST_RUN ?? 'local'}`;
}

export function templateDatabase(): string {
  return `${runPrefix()}_template`;
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The pool slot's databases of this run: `<run>_w<slot>_<random>`, one per test file. */
export function workerDatabasePrefix(): string {
  const id = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '0';
  return `${runPrefix()}_w${id}_`;
}

const workerSuffix = randomBytes(3).toString('hex');

export function workerDatabaseName(): string {
  return `${workerDatabasePrefix()}${workerSuffix}`;
}

const RUN = /^palisade_test_(\d+)_(?:([0-9a-z]+)_[0-9a-f]{4}_)?/;

/**
 * Whether the run that created `datname` has ended: its process is gone, or its PID now belongs
 * to a process that started after the run did (a reused PID). Names that do not follow the run
 * pattern are never touched.
 */
export function runIsOver(datname: string): boolean {
  const match = RUN.exec(datname);
  if (!match) return false;
  const pid = Number(match[1]);
  if (!isAlive(pid)) return true;
  const started = match[2] === undefined ? undefined : Number.parseInt(match[2], 36);
  const since = processStartMs(pid);
  return started !== undefined && since !== undefined && since > started + 2000;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** When process `pid` started (Linux /proc; undefined elsewhere). */
function processStartMs(pid: number): number | undefined {
  try {
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, starttime field 22.
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(bootSeconds) && Number.isFinite(ticks) ? bootSeconds * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Drops a test database, retrying while something still holds it (an autovacuum worker the test
 * role may not end without pg_signal_backend, a closing connection). Never throws: a database that
 * cannot be dropped now is left, with a warning, for a later run's sweep.
 */
export async function dropTestDatabase(admin: pg.Client, name: string, attempts = 5): Promise<boolean> {
  if (!/^palisade_test_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop database ${name}`);
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`drop database if exists ${name} with (force)`);
      return true;
    } catch (error) {
      if (attempt >= attempts) {
        console.warn(`test database ${name} not dropped (left for a later run): ${(error as Error).message}`);
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
