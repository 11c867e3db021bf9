import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, it } from 'vitest';
import { connectGateway, createGrpcApp, expectDeviceDelta, type GrpcTestApp, snapshotOf, type TestGateway } from '#test/gateway-support.js';
import { ensureWorkerDatabase } from '#test/helpers.js';
import { createLocation } from '#test/network-fixtures.js';

/**
 * Two API processes on one PostgreSQL database: instance A in this process, instance B a separate
 * `src/main.ts` process. A device created through A's REST API reaches a gateway connected to B's
 * gRPC port, which only PostgreSQL LISTEN/NOTIFY can carry across the process boundary.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: new URL('../..', import.meta.url).pathname,
    // Only what B needs: nothing of this process's environment leaks into it.
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  return { child, output: () => output };
}

it('a device created through process A reaches a gateway connected to process B', async () => {
  const a: GrpcTestApp = await createGrpcApp();
  cleanups.push(() => a.close());
  const url = await ensureWorkerDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'palisade-b-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const b = await startProcess({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    GRPC_PORT: String(grpcPort),
    SECRET_KEY: 'k'.repeat(40),
    LOG_LEVEL: 'warn',
    // No load balancer to drain from: stop at once on SIGTERM.
    SHUTDOWN_DRAIN_SECONDS: '0',
  });
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 100))) {
    if (b.child.exitCode !== null) throw new Error(`process B exited ${b.child.exitCode}: ${b.output()}`);
    if ((await fetch(`http://127.0.0.1:${httpPort}/api/v1/health`).catch(() => undefined))?.ok) break;
    if (Date.now() > deadline) throw new Error(`process B did not answer on :${httpPort}: ${b.output()}`);
  }

  const location = await createLocation(a.app, a.admin);
  const token = (await a.app.inject({ method: 'GET', url: `/api/v1/network/${location.id}/token`, headers: { cookie: a.admin } })).json()
    .token as string;
  const gateway: TestGateway = connectGateway(grpcPort, token);
  cleanups.push(() => gateway.close());
  const snapshot = await gateway.waitFor('snapshot from process B', snapshotOf);

  await expectDeviceDelta(a, gateway, snapshot);
}, 120_000);
