/**
 * Issue 10 §6: an MFA VPN session reaches the gateway as one peer delta. 100 sessions, one after
 * the other, each of its own user (TOTP, one code step per user is accepted once): time from the
 * response of `POST /api/v1/vpn_session/finish` to the device's peer (with the session's preshared
 * key) present on the real agent's wireguard-go interface, and from the response of
 * `DELETE /api/v1/vpn_session/{id}` to the peer gone. Target: finish → peer < 500 ms at p99.
 *
 * What is measured is the interface itself (wireguard-go's UAPI socket, polled every 2 ms), so the
 * figures include the LISTEN/NOTIFY wake-up, the delta build, gRPC, the agent's decode, diff and
 * `wg set`. The API runs in this process (buildApp as main.ts does, its gRPC server bound to a
 * veth address); the agent (apps/gateway, built: `pnpm --filter @palisade/gateway build`) runs in
 * its own network namespace on wireguard-go.
 *
 *   cd bench && npx tsx mfa-sessions.ts        (root: netns + wireguard-go; PostgreSQL, see README)
 *
 * Env: BENCH_SESSIONS (default 100), BENCH_LOG_LEVEL (default warn).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { buildApp, REDACT_PATHS } from '../apps/api/src/app.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { runMigrations } from '../apps/api/src/db/migrate.ts';
import { parseEnv } from '../apps/api/src/env.ts';
import { SecretBox } from '../apps/api/src/lib/crypto.ts';
import { bootstrap } from '../apps/api/src/modules/users/bootstrap.service.ts';
import { freePort, machineInfo, percentile, REPO_ROOT, recreateDatabase, round, verdict, writeResult } from './lib/common.ts';

const apiRequire = createRequire(new URL('../apps/api/package.json', import.meta.url));
const { generateSync } = (await import(apiRequire.resolve('otplib'))) as typeof import('../apps/api/node_modules/otplib');

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const TARGET_MS = 500;
const DB_NAME = 'palisade_bench_mfa_sessions';
const ADMIN_PASSWORD = 'Bench-Admin-1!';
const SECRET_KEY = 'bench-mfa-sessions-secret-0123456789';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const SUFFIX = String(process.pid % 100_000);
const NS = `pbm-${SUFFIX}`;
const HOST_IF = `pbh${SUFFIX}`;
const NS_IF = `pbg${SUFFIX}`;
const WG_IF = `pbw${SUFFIX}`;
const HOST_IP = '10.238.0.1';
const AGENT_BUNDLE = join(REPO_ROOT, 'apps/gateway/dist/main.js');
const AGENT_BIN = join(REPO_ROOT, 'apps/gateway/bin/palisade-gateway.mjs');

const sh = (cmd: string, args: string[], input?: string) => execFileSync(cmd, args, { encoding: 'utf8', input });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function requirements(): void {
  if (process.getuid?.() !== 0) throw new Error('mfa-sessions needs root (network namespace, wireguard-go)');
  for (const tool of ['/usr/bin/wg', '/usr/bin/wireguard-go']) if (!existsSync(tool)) throw new Error(`${tool} is missing`);
  if (!existsSync(AGENT_BUNDLE)) throw new Error(`${AGENT_BUNDLE} is missing: pnpm --filter @palisade/gateway build`);
}

/** `count` users with TOTP (one shared secret) and an active console session each (cookie `mfab-<n>`). */
async function seedUsers(pool: Pool, count: number): Promise<void> {
  const sealed = SecretBox.fromSecret(SECRET_KEY).encrypt(TOTP_SECRET);
  await pool.query(
    `insert into users (username, first_name, last_name, email, mfa_enabled, mfa_method)
     select 'mfab' || g, 'Bench', 'User' || g, 'mfab' || g || '@bench.example', true, 'totp' from generate_series(1, $1::int) g`,
    [count],
  );
  await pool.query(`insert into mfa_methods (user_id, method) select id, 'totp' from users where username like 'mfab%'`);
  await pool.query(`insert into mfa_totp (user_id, secret) select id, $1 from users where username like 'mfab%'`, [sealed]);
  await pool.query(
    `insert into sessions (id, user_id, state, expires_at)
     select encode(sha256(convert_to(username, 'UTF8')), 'hex'), id, 'active', now() + interval '1 hour'
       from users where username like 'mfab%'`,
  );
}

// ------------------------------------------------------------------------------------------------
// wireguard-go's UAPI socket: the peers on the interface (public key → preshared key, hex)

function uapiPeers(ifname: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const socket = connect(`/var/run/wireguard/${ifname}.sock`);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (!text.endsWith('\n\n')) return;
      socket.end();
      const peers = new Map<string, string>();
      let current: string | undefined;
      for (const line of text.split('\n')) {
        const [key, value = ''] = line.split('=', 2);
        if (key === 'public_key') {
          current = value;
          peers.set(value, '');
        } else if (key === 'preshared_key' && current) peers.set(current, value);
      }
      resolve(peers);
    });
    socket.on('error', reject);
    socket.write('get=1\n\n');
  });
}

const hex = (base64: string) => Buffer.from(base64, 'base64').toString('hex');
const ZERO_KEY_HEX = '0'.repeat(64);

/** Polls the interface every 2 ms until `done(peers)`; the time it became true (performance.now()). */
async function waitOnInterface(what: string, done: (peers: Map<string, string>) => boolean, timeoutMs = 10_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (done(await uapiPeers(WG_IF))) return performance.now();
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

// ------------------------------------------------------------------------------------------------

function setUpNetwork(): void {
  sh('ip', ['netns', 'add', NS]);
  sh('ip', ['-n', NS, 'link', 'set', 'lo', 'up']);
  sh('ip', ['link', 'add', HOST_IF, 'type', 'veth', 'peer', 'name', NS_IF, 'netns', NS]);
  sh('ip', ['addr', 'add', `${HOST_IP}/24`, 'dev', HOST_IF]);
  sh('ip', ['link', 'set', HOST_IF, 'up']);
  sh('ip', ['-n', NS, 'addr', 'add', '10.238.0.2/24', 'dev', NS_IF]);
  sh('ip', ['-n', NS, 'link', 'set', NS_IF, 'up']);
}

/** PIDs of the wireguard-go serving `ifname` (the agent starts it detached; the name is unique to this run). */
function wireguardGoPids(ifname: string): number[] {
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

async function tearDownNetwork(agent: ChildProcess | undefined): Promise<void> {
  if (agent && agent.exitCode === null && agent.signalCode === null) {
    const exited = new Promise((resolve) => agent.once('exit', resolve));
    agent.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
  }
  for (const pid of wireguardGoPids(WG_IF)) process.kill(pid, 'SIGTERM');
  for (const args of [
    ['netns', 'delete', NS],
    ['link', 'del', HOST_IF],
  ]) {
    try {
      sh('ip', args);
    } catch {
      // already gone
    }
  }
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? Number.NaN),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

async function main(): Promise<void> {
  requirements();
  const machine = await machineInfo();
  console.log(`mfa-sessions: ${machine.cpus} CPUs, ${machine.ram_gb} GB, node ${machine.node}, load ${machine.loadavg_1_5_15.join(' ')}`);
  const url = await recreateDatabase(DB_NAME);
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
  await runMigrations(database);
  await bootstrap(database.db, ADMIN_PASSWORD);
  await seedUsers((database.db as unknown as { $client: Pool }).$client, SESSIONS);

  let agent: ChildProcess | undefined;
  const agentOutput: string[] = [];
  setUpNetwork();
  const env = parseEnv({ DATABASE_URL: url, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL, HOST: '127.0.0.1', PORT: '0', SECRET_KEY });
  const app = await buildApp({
    env,
    database,
    secretKey: SECRET_KEY,
    grpc: { port: await freePort(), host: HOST_IP },
    logger: { level: env.LOG_LEVEL, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, file: '/dev/null' },
    checkResponses: false,
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const call = async (method: string, path: string, cookie: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };
    const login = await fetch(`${base}/api/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const admin = String(login.headers.get('set-cookie')).split(';')[0] ?? '';
    const location = (await call('POST', '/api/v1/network', admin, {
      name: 'mfa-bench',
      address: ['10.239.0.1/16'],
      endpoint: '10.238.0.2',
      port: 51999,
      mfa_enabled: true,
    })) as { id: number };
    const devices: { user: string; pubkey: string }[] = [];
    for (let i = 1; i <= SESSIONS; i++) {
      const pubkey = sh('wg', ['pubkey'], `${sh('wg', ['genkey']).trim()}\n`).trim();
      await call('POST', `/api/v1/device/mfab${i}`, admin, { name: `laptop-${i}`, wireguard_pubkey: pubkey });
      devices.push({ user: `mfab${i}`, pubkey });
    }
    const { token } = (await call('GET', `/api/v1/network/${location.id}/token`, admin)) as { token: string };
    const grpcPort = app.gatewayControl?.port;
    agent = spawn(
      'ip',
      [
        ...['netns', 'exec', NS, process.execPath, AGENT_BIN],
        ...[
          '--grpc-url',
          `http://${HOST_IP}:${grpcPort}`,
          '--token',
          token,
          '--ifname',
          WG_IF,
          '--userspace',
          'always',
          '--health-port',
          '0',
        ],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [agent.stdout, agent.stderr])
      stream?.on('data', (b: Buffer) => agentOutput.push(...b.toString().split('\n').filter(Boolean)));
    const deadline = Date.now() + 30_000;
    while (!existsSync(`/var/run/wireguard/${WG_IF}.sock`) || !(await uapiPeers(WG_IF).catch(() => undefined))) {
      if (Date.now() > deadline || agent.exitCode !== null)
        throw new Error(`the agent did not bring ${WG_IF} up:\n${agentOutput.join('\n')}`);
      await sleep(50);
    }
    if ((await uapiPeers(WG_IF)).size !== 0) throw new Error('peers on the interface before any session');

    const agentLinesBefore = agentOutput.length;
    const cookieOf = (user: string) => `palisade_session=${user}`;
    const started: { id: number; user: string; pubkey: string }[] = [];
    const finishToPeer: number[] = [];
    const callToPeer: number[] = [];
    const finishCall: number[] = [];
    for (const device of devices) {
      const cookie = cookieOf(device.user);
      const { challenge } = (await call('POST', '/api/v1/vpn_session/start', cookie, {
        location_id: location.id,
        device_pubkey: device.pubkey,
      })) as { challenge: string };
      const code = generateSync({ secret: TOTP_SECRET, epoch: Math.floor(Date.now() / 1000) });
      const t0 = performance.now();
      const finished = (await call('POST', '/api/v1/vpn_session/finish', cookie, { challenge, code })) as {
        session: { id: number };
        preshared_key: string;
      };
      const t1 = performance.now();
      const key = hex(device.pubkey);
      const psk = hex(finished.preshared_key);
      const t2 = await waitOnInterface(`the peer of ${device.user}`, (peers) => peers.get(key) === psk && psk !== ZERO_KEY_HEX);
      finishCall.push(t1 - t0);
      finishToPeer.push(Math.max(0, t2 - t1));
      callToPeer.push(t2 - t0);
      started.push({ id: finished.session.id, ...device });
    }
    if ((await uapiPeers(WG_IF)).size !== SESSIONS) throw new Error('not every session peer is on the interface');

    const endToGone: number[] = [];
    const endCallToGone: number[] = [];
    for (const session of started) {
      const t0 = performance.now();
      await call('DELETE', `/api/v1/vpn_session/${session.id}`, cookieOf(session.user));
      const t1 = performance.now();
      const key = hex(session.pubkey);
      const t2 = await waitOnInterface(`the peer of ${session.user} gone`, (peers) => !peers.has(key));
      endToGone.push(Math.max(0, t2 - t1));
      endCallToGone.push(t2 - t0);
    }

    // The agent logs each apply: one session start or end should be one apply of one change.
    await sleep(200);
    const applies = agentOutput
      .slice(agentLinesBefore)
      .map((line) => /applying (\d+) change\(s\)/.exec(line)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number);
    const finishStats = stats(finishToPeer);
    const result = {
      machine,
      command: 'cd bench && npx tsx mfa-sessions.ts',
      sessions: SESSIONS,
      measured: 'the peer on the real agent’s wireguard-go interface (UAPI socket polled every 2 ms)',
      finish_response_to_peer_ms: finishStats,
      finish_call_start_to_peer_ms: stats(callToPeer),
      finish_call_ms: stats(finishCall),
      delete_response_to_peer_gone_ms: stats(endToGone),
      delete_call_start_to_peer_gone_ms: stats(endCallToGone),
      agent_applies: { count: applies.length, changes: applies.reduce((a, b) => a + b, 0), expected: 2 * SESSIONS },
      target: `finish → peer on the agent < ${TARGET_MS} ms at p99`,
      verdict: verdict(finishStats.p99 < TARGET_MS && stats(callToPeer).p99 < TARGET_MS),
      loadavg_1_5_15_at_end: loadavg().map((v) => round(v, 2)),
    };
    console.log(JSON.stringify(result, null, 2));
    console.log(`written to ${writeResult('mfa-sessions', result)}`);
  } catch (error) {
    console.log(`--- agent output\n${agentOutput.slice(-30).join('\n')}`);
    throw error;
  } finally {
    await tearDownNetwork(agent);
    await app.close();
    await database.close();
  }
}

await main();
