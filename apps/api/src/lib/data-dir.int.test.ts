import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '#src/db/client.js';

/**
 * The embedded database holds password and session hashes: `src/main.ts` on a temporary DATA_DIR
 * (PGlite) must leave nothing readable by other local users, and tighten a DATA_DIR that an older
 * release left loose (0755 directories, 0644 files).
 */
const dataDir = await mkdtemp(join(tmpdir(), 'palisade-modes-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Starts the API on `dataDir`, waits for /health, and returns its output and a stop function. */
async function start(): Promise<{ output: () => string; stop: () => Promise<void> }> {
  const [port, grpcPort] = [await freePort(), await freePort()];
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      GRPC_PORT: String(grpcPort),
      ADMIN_PASSWORD: 'Admin123!modes',
      LOG_LEVEL: 'warn',
      // No load balancer to drain from: stop at once on SIGTERM.
      SHUTDOWN_DRAIN_SECONDS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (const deadline = Date.now() + 90_000; ; await new Promise((r) => setTimeout(r, 100))) {
    if (child.exitCode !== null) throw new Error(`the API exited ${child.exitCode}: ${output}`);
    if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined))?.ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the API did not answer on :${port}: ${output}`);
    }
  }
  return { output: () => output, stop };
}

/** Every path under `dir` with its permission bits. */
async function modes(dir: string, out: Record<string, number> = {}): Promise<Record<string, number>> {
  const info = await lstat(dir);
  out[dir] = info.mode & 0o777;
  if (info.isDirectory()) for (const entry of await readdir(dir)) await modes(join(dir, entry), out);
  return out;
}

const readableByOthers = (all: Record<string, number>) =>
  Object.entries(all)
    .filter(([, mode]) => (mode & 0o077) !== 0)
    .map(([path, mode]) => `${path} 0${mode.toString(8)}`);

it('creates DATA_DIR, the cluster and the key file owner-only, tightens a loose DATA_DIR at start, and reports reserved usernames', async () => {
  const first = await start();
  await first.stop();
  const created = await modes(dataDir);
  expect(Object.keys(created).length).toBeGreaterThan(100);
  expect(readableByOthers(created)).toEqual([]);
  expect(created[dataDir]).toBe(0o700);
  expect(created[join(dataDir, 'pgdata')]).toBe(0o700);
  expect(created[join(dataDir, 'secret.key')]).toBe(0o600);
  expect(created[join(dataDir, 'pgdata', 'PG_VERSION')]).toBe(0o600);
  expect(first.output()).not.toContain('permissions tightened');

  // An account whose name a fixed route now shadows (created before the word was reserved).
  const database = await openDatabase({ dataDir });
  await database.db.execute(sql`insert into users (username, first_name, last_name, email) values ('network', 'N', 'W', 'nw@example.com')`);
  await database.close();

  // As an older release left it: everything readable by everyone.
  for (const [path, mode] of Object.entries(await modes(dataDir))) await chmod(path, mode === 0o700 ? 0o755 : 0o644);
  await mkdir(join(dataDir, 'unrelated'), { mode: 0o755 });
  await chmod(join(dataDir, 'unrelated'), 0o755);
  const second = await start();
  await second.stop();
  const after = await modes(dataDir);
  // Only Palisade's own entries are touched.
  expect(after[join(dataDir, 'unrelated')]).toBe(0o755);
  delete after[join(dataDir, 'unrelated')];
  expect(readableByOthers(after)).toEqual([]);
  expect(second.output()).toMatch(/DATA_DIR permissions tightened: \d+ paths/);
  expect(second.output()).toContain(`${join(dataDir, 'pgdata')} 0755 -> 0700`);
  expect(second.output()).toMatch(/"usernames":\["network"\].*Some users have a name the API reserves/);
}, 240_000);
