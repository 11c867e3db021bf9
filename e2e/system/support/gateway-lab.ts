import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { run } from './host';

/**
 * Pieces of the gateway system test (gateway-tunnel.spec.ts): the built API as a child process
 * on its own PostgreSQL database (so the test can stop and restart it), a TCP forwarder that
 * lets a namespace reach the API's loopback gRPC port, the real agent process in a namespace,
 * and `wg show dump` parsing. Everything is started by the test and stopped by PID.
 */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Thrown by a probe to end `waitFor` at once (e.g. the process it waits for has exited). */
export class GiveUp extends Error {}

/**
 * Polls `probe` until it returns a value other than undefined; throws after `timeoutMs`. Errors
 * of the probe count as "not yet", except `GiveUp`.
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`,
      );
    }
    await sleep(intervalMs);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
export async function stopProcess(child: ChildProcess | undefined, graceMs = 10_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Sends `signal` to `child` and resolves when it has exited (at once when it already has). */
export async function killChild(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  await exited;
}

// ------------------------------------------------------------------------------------------------
// PostgreSQL database of the test (psql as the `palisade` role of scripts/ensure-postgres.sh)

const ADMIN_URL = process.env.PALISADE_SYSTEM_ADMIN_DATABASE_URL ?? 'postgres://palisade:palisade@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function recreateDatabase(name: string): Promise<string> {
  if (!/^palisade_system_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to touch database ${name}`);
  await run('bash', [`${REPO_ROOT}scripts/ensure-postgres.sh`]);
  await run('psql', [ADMIN_URL, '-qc', `drop database if exists ${name} with (force)`]);
  await run('psql', [ADMIN_URL, '-qc', `create database ${name}`]);
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  if (!/^palisade_system_[a-z0-9_]+$/.test(name)) return;
  await run('psql', [ADMIN_URL, '-qc', `drop database if exists ${name} with (force)`]).catch(() => undefined);
}

// ------------------------------------------------------------------------------------------------
// The built API as a restartable child process (PALISADE_SYSTEM_API_MAIN: another build of it)

const API_MAIN = process.env.PALISADE_SYSTEM_API_MAIN ?? `${REPO_ROOT}apps/api/dist/main.js`;

export class ApiProcess {
  private child: ChildProcess | undefined;
  readonly output: string[] = [];
  /** How the last started process ended (undefined while it runs or before the first start). */
  lastExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--enable-source-maps', API_MAIN], {
      // No drain on SIGTERM unless a test asks for one (replicas.spec.ts): stops stay quick.
      env: { ...process.env, SHUTDOWN_DRAIN_SECONDS: '0', ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.lastExit = undefined;
    child.once('exit', (code, signal) => {
      this.lastExit = { code, signal };
    });
    const keep = (b: Buffer) => this.output.push(...b.toString().split('\n').filter(Boolean).slice(-50));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    await waitFor(
      'the API to answer /api/v1/health',
      async () => {
        if (child.exitCode !== null) throw new GiveUp(`the API exited with ${child.exitCode}:\n${this.output.slice(-20).join('\n')}`);
        const res = await fetch(`${this.url}/api/v1/health`).catch(() => undefined);
        return res?.ok ? true : undefined;
      },
      60_000,
      200,
    );
  }

  async stop(): Promise<void> {
    await stopProcess(this.child);
    this.child = undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Sends `signal` (e.g. SIGKILL for a crash) and resolves when the process has exited. */
  async kill(signal: NodeJS.Signals): Promise<void> {
    await killChild(this.child, signal);
    this.child = undefined;
  }
}

// ------------------------------------------------------------------------------------------------
// TCP forwarder: namespace → host loopback

/**
 * Listens on `host:0` (an address of a veth end in the host namespace) and forwards each
 * connection to `127.0.0.1:targetPort`. When the target is down, connections are accepted and
 * closed at once, as a stopped API would refuse them.
 */
export class TcpForwarder {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  port = 0;

  private constructor(targetPort: number) {
    this.server = createServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
  }

  static async start(host: string, targetPort: number): Promise<TcpForwarder> {
    const forwarder = new TcpForwarder(targetPort);
    await new Promise<void>((resolve, reject) => {
      forwarder.server.once('error', reject);
      forwarder.server.listen(0, host, resolve);
    });
    const address = forwarder.server.address();
    forwarder.port = typeof address === 'object' && address ? address.port : 0;
    return forwarder;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// ------------------------------------------------------------------------------------------------
// The real agent (apps/gateway) in a namespace

export class AgentProcess {
  private child: ChildProcess | undefined;
  readonly output: string[] = [];

  /** Runs `node apps/gateway/bin/palisade-gateway.mjs <flags>` inside `namespace`. */
  start(namespace: string, flags: string[]): void {
    const child = spawn(
      'ip',
      ['netns', 'exec', namespace, process.execPath, `${REPO_ROOT}apps/gateway/bin/palisade-gateway.mjs`, ...flags],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    const keep = (b: Buffer) => this.output.push(...b.toString().split('\n').filter(Boolean));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  get exitCode(): number | null {
    return this.child?.exitCode ?? null;
  }

  async stop(): Promise<void> {
    await stopProcess(this.child);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Sends `signal` to the agent (the node process under `ip netns exec`, which execs it) and
   * resolves when it has exited.
   */
  async kill(signal: NodeJS.Signals): Promise<void> {
    await killChild(this.child, signal);
  }
}

/** Builds the agent's bundle (dist/main.js), which its bin runs: the test must not run a stale build. */
export async function buildAgent(): Promise<void> {
  await run(process.execPath, [`${REPO_ROOT}apps/gateway/scripts/build.mjs`]);
}

/**
 * PIDs of the wireguard-go processes serving `ifname` (the agent starts wireguard-go detached, so
 * it outlives the agent). Interface names are unique per test run, so this finds only ours.
 */
export function wireguardGoPids(ifname: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv.length === 3 && argv[0]?.endsWith('wireguard-go') && argv[1] === '-f' && argv[2] === ifname) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

// ------------------------------------------------------------------------------------------------
// `wg show <if> dump`

export interface PeerDump {
  publicKey: string;
  /** Null when the peer has none (`(none)` in the dump). */
  presharedKey: string | null;
  endpoint: string | null;
  allowedIps: string[];
  latestHandshake: number;
  rxBytes: number;
  txBytes: number;
}

export function parsePeers(dump: string): Map<string, PeerDump> {
  const peers = new Map<string, PeerDump>();
  for (const line of dump.trim().split('\n').slice(1)) {
    const f = line.split('\t');
    if (f.length < 8) continue;
    peers.set(f[0]!, {
      publicKey: f[0]!,
      presharedKey: f[1] === '(none)' ? null : (f[1] ?? null),
      endpoint: f[2] === '(none)' ? null : (f[2] ?? null),
      allowedIps: f[3] === '(none)' ? [] : (f[3]?.split(',') ?? []),
      latestHandshake: Number(f[4]),
      rxBytes: Number(f[5]),
      txBytes: Number(f[6]),
    });
  }
  return peers;
}
