import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type APIRequestContext, expect, request, test } from '@playwright/test';
import { ADMIN_PASSWORD } from '../support/constants';
import {
  AgentProcess,
  ApiProcess,
  buildAgent,
  dropDatabase,
  freePort,
  GiveUp,
  killPids,
  recreateDatabase,
  TcpForwarder,
  waitFor,
  wireguardGoPids,
} from './support/gateway-lab';
import { Namespace, requireRoot, run, uniqueSuffix } from './support/host';

/**
 * Issue 12 §4: ACL rules enforced by the real agent with nftables, through real tunnels
 * (wireguard-go), with the access check asked about every observed outcome.
 *
 *   host (API, forwarder on 10.234.S.1) ── veth ── gateway ns (10.234.S.2)
 *   gateway ns ── veth ── client A ns (10.235.S.2), ── veth ── client B ns (10.238.S.2)
 *   gateway ns (10.237.S.1) ── veth ── service ns (10.237.S.2, TCP 8080 and 9090)
 *   tunnel 10.236.S.0/24; the clients route the service network through it
 *
 * User A (group "dev", allowed TCP 8080 by a group rule) reaches 8080 and not 9090; user B
 * reaches neither under deny by default; a rule deployed for B opens 8080 within 5 s without
 * either client reconnecting; a rule for B to 9090 that expires stops working; turning the
 * location's ACL off leaves no Palisade table on the gateway (and then everything passes).
 */
const suffix = uniqueSuffix();
const S = Number(suffix) % 250;
const GATEWAY_IF = `pat${suffix}`;
const TUNNEL_GATEWAY_IP = `10.236.${S}.1`;
const SERVICE_IP = `10.237.${S}.2`;
const DATABASE = `palisade_system_acl_${suffix}`;

const SERVER = `
const net = require('node:net');
const serve = (s) => { s.on('error', () => {}); s.end('hi'); };
for (const port of [8080, 9090]) net.createServer(serve).listen({ port, host: '0.0.0.0' });
setInterval(() => {}, 1 << 30);
`;
/** Reads {id, port} lines, answers {id, ok}: a TCP connect to the service through the tunnel. */
const PROBE = `
const net = require('node:net');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, port } = JSON.parse(line);
  const s = net.connect({ host: '${SERVICE_IP}', port, timeout: 1000 });
  const done = (ok) => { s.destroy(); process.stdout.write(JSON.stringify({ id, ok }) + '\\n'); };
  s.once('connect', () => done(true));
  s.once('timeout', () => done(false));
  s.once('error', () => done(false));
});
`;

async function wgKeyPair() {
  const privateKey = (await run('wg', ['genkey'])).trim();
  return { privateKey, publicKey: (await run('wg', ['pubkey'], `${privateKey}\n`)).trim() };
}

const note = (what: string, ms: number) => {
  test.info().annotations.push({ type: 'timing', description: `${what} ${ms} ms` });
  console.log(`timing: ${what} ${ms} ms`);
};

async function json<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (status === 204 ? undefined : await response.json()) as T;
}

/** A TCP prober living in a client namespace. */
class Prober {
  private readonly pending = new Map<number, (ok: boolean) => void>();
  private next = 0;
  readonly child: ChildProcess;
  constructor(ns: string) {
    this.child = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', PROBE], { stdio: ['pipe', 'pipe', 'inherit'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const { id, ok } = JSON.parse(line) as { id: number; ok: boolean };
      this.pending.get(id)?.(ok);
      this.pending.delete(id);
    });
  }
  reaches(port: number): Promise<boolean> {
    return new Promise((resolve) => {
      const id = this.next++;
      this.pending.set(id, resolve);
      this.child.stdin!.write(`${JSON.stringify({ id, port })}\n`);
    });
  }
}

test('ACL rules reach the gateway as nftables and traffic through real tunnels obeys them', async () => {
  test.setTimeout(300_000);
  requireRoot();
  await buildAgent();
  const namespaces: Namespace[] = [];
  const processes: ChildProcess[] = [];
  const agent = new AgentProcess();
  let api: ApiProcess | undefined;
  let forwarder: TcpForwarder | undefined;
  let http: APIRequestContext | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'palisade-acl-sys-'));
  try {
    // --- Topology
    const gw = await Namespace.create(`pacl-gw-${suffix}`);
    namespaces.push(gw);
    const svc = await Namespace.create(`pacl-sv-${suffix}`);
    namespaces.push(svc);
    await run('ip', ['link', 'add', `pah${suffix}`, 'type', 'veth', 'peer', 'name', `pag${suffix}`, 'netns', gw.name]);
    await run('ip', ['addr', 'add', `10.234.${S}.1/24`, 'dev', `pah${suffix}`]);
    await run('ip', ['link', 'set', `pah${suffix}`, 'up']);
    await gw.exec('ip', ['addr', 'add', `10.234.${S}.2/24`, 'dev', `pag${suffix}`]);
    await gw.exec('ip', ['link', 'set', `pag${suffix}`, 'up']);
    await gw.exec('sysctl', ['-qw', 'net.ipv4.ip_forward=1']);
    await run('ip', ['-n', gw.name, 'link', 'add', `pas${suffix}`, 'type', 'veth', 'peer', 'name', `paz${suffix}`, 'netns', svc.name]);
    await gw.exec('ip', ['addr', 'add', `10.237.${S}.1/24`, 'dev', `pas${suffix}`]);
    await gw.exec('ip', ['link', 'set', `pas${suffix}`, 'up']);
    await svc.exec('ip', ['addr', 'add', `${SERVICE_IP}/24`, 'dev', `paz${suffix}`]);
    await svc.exec('ip', ['link', 'set', `paz${suffix}`, 'up']);
    await svc.exec('ip', ['route', 'add', 'default', 'via', `10.237.${S}.1`]);
    processes.push(spawn('ip', ['netns', 'exec', svc.name, process.execPath, '-e', SERVER], { stdio: 'ignore' }));

    // --- The API (jobs on: the ACL expiry sweep every second) on PostgreSQL
    const grpcPort = await freePort();
    api = new ApiProcess(await freePort(), {
      DATABASE_URL: await recreateDatabase(DATABASE),
      DATA_DIR: dir,
      SECRET_KEY: 'system-test-secret-key-system-test-secret-key',
      ADMIN_PASSWORD,
      GRPC_PORT: String(grpcPort),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      ACL_EXPIRY_INTERVAL_MS: '1000',
    });
    await api.start();
    forwarder = await TcpForwarder.start(`10.234.${S}.1`, grpcPort);
    http = await request.newContext({ baseURL: api.url });
    expect((await http.post('/api/v1/auth', { data: { username: 'admin', password: ADMIN_PASSWORD } })).status()).toBe(200);

    // --- Users: alice in group dev, bob in no group
    const person = (username: string) => ({ username, first_name: username, last_name: 'Test', email: `${username}@example.com` });
    const alice = await json<{ id: number }>(await http.post('/api/v1/user', { data: person('alice') }), 201);
    const bob = await json<{ id: number }>(await http.post('/api/v1/user', { data: person('bob') }), 201);
    await json(await http.post('/api/v1/group', { data: { name: 'dev', members: ['alice'] } }), 201);

    // --- The location: ACL on, deny by default; the service network routed through the tunnel
    const listenPort = 53000 + (Number(suffix) % 1000);
    const locationBody = {
      name: `acl-sys-${suffix}`,
      address: [`${TUNNEL_GATEWAY_IP}/24`],
      endpoint: `10.235.${S}.1`,
      port: listenPort,
      allowed_ips: [`10.236.${S}.0/24`, `10.237.${S}.0/24`],
      keepalive_interval: 5,
      acl_enabled: true,
      acl_default_allow: false,
    };
    const location = await json<{ id: number }>(await http.post('/api/v1/network', { data: locationBody }), 201);
    const token = await json<{ token: string }>(await http.get(`/api/v1/network/${location.id}/token`), 200);

    agent.start(gw.name, [
      ...['--grpc-url', `http://10.234.${S}.1:${forwarder.port}`, '--token', token.token],
      ...['--ifname', GATEWAY_IF, '--userspace', 'always', '--stats-interval', '5', '--health-port', '0'],
    ]);
    const table = `palisade_${GATEWAY_IF}`;
    const hasTable = async () => (await gw.exec('nft', ['list', 'tables'])).includes(`table inet ${table}`);
    await waitFor(
      'the agent to apply the location and its firewall',
      async () => {
        if (agent.exitCode !== null) throw new GiveUp(`agent exited with ${agent.exitCode}:\n${agent.output.join('\n')}`);
        return (await hasTable()) ? true : undefined;
      },
      30_000,
    );

    // --- A client namespace per user, each with its device's config downloaded through the API
    const connectClient = async (name: string, username: string, underlay: number, ifname: string) => {
      const ns = await Namespace.create(`pacl-${name}-${suffix}`);
      namespaces.push(ns);
      await run('ip', [
        '-n',
        gw.name,
        'link',
        'add',
        `pu${name}${suffix}`,
        'type',
        'veth',
        'peer',
        'name',
        `pv${name}${suffix}`,
        'netns',
        ns.name,
      ]);
      await gw.exec('ip', ['addr', 'add', `10.${underlay}.${S}.1/24`, 'dev', `pu${name}${suffix}`]);
      await gw.exec('ip', ['link', 'set', `pu${name}${suffix}`, 'up']);
      await ns.exec('ip', ['addr', 'add', `10.${underlay}.${S}.2/24`, 'dev', `pv${name}${suffix}`]);
      await ns.exec('ip', ['link', 'set', `pv${name}${suffix}`, 'up']);
      if (underlay !== 235) await ns.exec('ip', ['route', 'add', `10.235.${S}.1/32`, 'via', `10.${underlay}.${S}.1`]);
      const keys = await wgKeyPair();
      const created = await json<{ device: { id: number } }>(
        await http!.post(`/api/v1/device/${username}`, { data: { name: `${username}-laptop`, wireguard_pubkey: keys.publicKey } }),
        201,
      );
      const download = await http!.get(`/api/v1/network/${location.id}/device/${created.device.id}/config`);
      expect(download.status()).toBe(200);
      const config = (await download.text()).replace(/^PrivateKey = .*$/m, `PrivateKey = ${keys.privateKey}`);
      const field = (f: string) =>
        (new RegExp(`^${f}\\s*=\\s*(.+)$`, 'm').exec(config)?.[1] ?? '')
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v && !v.includes(':'));
      const file = join(dir, `${ifname}.conf`);
      writeFileSync(file, config, { mode: 0o600 });
      writeFileSync(join(dir, `${ifname}.stripped`), await run('wg-quick', ['strip', file]), { mode: 0o600 });
      await ns.startWireguardGo(ifname);
      await ns.exec('wg', ['setconf', ifname, join(dir, `${ifname}.stripped`)]);
      for (const address of field('Address')) await ns.exec('ip', ['addr', 'add', address, 'dev', ifname]);
      await ns.exec('ip', ['link', 'set', ifname, 'up']);
      for (const net of field('AllowedIPs')) await ns.exec('ip', ['route', 'replace', net, 'dev', ifname]);
      // The gateway's own tunnel address is not filtered (the firewall covers forwarded traffic only).
      await waitFor(
        `${username}'s tunnel`,
        async () => ((await ns.exec('ping', ['-c', '1', '-W', '1', TUNNEL_GATEWAY_IP])) ? true : undefined),
        20_000,
        200,
      );
      const prober = new Prober(ns.name);
      processes.push(prober.child);
      return { device: created.device.id, prober, publicKey: keys.publicKey };
    };
    const a = await connectClient('a', 'alice', 235, `pca${suffix}`);
    const b = await connectClient('b', 'bob', 238, `pcb${suffix}`);
    const handshakes = async () => (await gw.exec('wg', ['show', GATEWAY_IF, 'latest-handshakes'])).trim();

    /** What the API's access check says for a user to the service port over TCP. */
    const check = async (userId: number, port: number) =>
      json<{ verdict: 'allow' | 'deny'; decided_by: { kind: string; rule_name?: string }; mode: string }>(
        await http!.get(
          `/api/v1/acl/check?location=${location.id}&source=user:${userId}&destination=${SERVICE_IP}&port=${port}&protocol=tcp`,
        ),
        200,
      );
    /** Each observed outcome, and the access check for the same user, port and protocol. */
    const observe = async () => {
      const seen: Record<string, boolean> = {};
      const said: Record<string, boolean> = {};
      for (const [name, client, user] of [
        ['A', a, alice],
        ['B', b, bob],
      ] as const) {
        for (const port of [8080, 9090]) {
          seen[`${name}:${port}`] = await client.prober.reaches(port);
          said[`${name}:${port}`] = (await check(user.id, port)).verdict === 'allow';
        }
      }
      expect(said, 'the access check agrees with the traffic').toEqual(seen);
      return seen;
    };
    const deploy = async (body: object) => {
      const rule = await json<{ id: number }>(await http!.post('/api/v1/acl/rule', { data: body }), 201);
      await json(await http!.put('/api/v1/acl/rule/apply', { data: { rules: [rule.id] } }), 204);
      return rule.id;
    };
    const ruleFor = (name: string, who: object, port: string, extra: object = {}) => ({
      name,
      locations: [location.id],
      destinations: [SERVICE_IP],
      ports: [port],
      protocols: ['tcp'],
      ...who,
      ...extra,
    });

    // --- Deny by default, no rule: nobody reaches the service
    expect(await observe()).toEqual({ 'A:8080': false, 'A:9090': false, 'B:8080': false, 'B:9090': false });

    // --- Group dev may use 8080
    await deploy(ruleFor('dev web', { allowed_groups: ['dev'] }, '8080'));
    await waitFor('alice to reach 8080', async () => ((await a.prober.reaches(8080)) ? true : undefined), 10_000, 100);
    expect(await observe()).toEqual({ 'A:8080': true, 'A:9090': false, 'B:8080': false, 'B:9090': false });
    expect((await check(alice.id, 8080)).decided_by).toMatchObject({ kind: 'rule', rule_name: 'dev web' });
    expect((await check(bob.id, 8080)).decided_by).toMatchObject({ kind: 'default' });

    // --- A rule for bob: 8080 within 5 s, neither client reconnecting (same peers, same handshakes)
    const before = await handshakes();
    await deploy(ruleFor('bob web', { allowed_users: ['bob'] }, '8080'));
    const deployedAt = Date.now();
    await waitFor('bob to reach 8080', async () => ((await b.prober.reaches(8080)) ? true : undefined), 5_000, 50);
    note('rule deployed → bob reaches 8080 after', Date.now() - deployedAt);
    expect(await observe()).toEqual({ 'A:8080': true, 'A:9090': false, 'B:8080': true, 'B:9090': false });
    const keysOf = (dump: string) =>
      dump
        .split('\n')
        .map((l) => l.split('\t')[0])
        .sort();
    expect(keysOf(await handshakes())).toEqual(keysOf(before));

    // --- A rule for bob to 9090 that expires: it works, then stops at its time
    const expiresAt = Date.now() + 8_000;
    await deploy(ruleFor('bob until soon', { allowed_users: ['bob'] }, '9090', { expires: new Date(expiresAt).toISOString() }));
    await waitFor('bob to reach 9090 before the expiry', async () => ((await b.prober.reaches(9090)) ? true : undefined), 5_000, 50);
    expect(Date.now()).toBeLessThan(expiresAt);
    await waitFor('bob to lose 9090 after the expiry', async () => ((await b.prober.reaches(9090)) ? undefined : true), 20_000, 200);
    note('rule expired → bob blocked after (from the expiry time)', Date.now() - expiresAt);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 1_000);
    expect(await observe()).toEqual({ 'A:8080': true, 'A:9090': false, 'B:8080': true, 'B:9090': false });

    // --- ACL off: the gateway has no Palisade table and nothing is filtered
    await json(await http.put(`/api/v1/network/${location.id}`, { data: { ...locationBody, acl_enabled: false } }), 200);
    await waitFor('the table to go', async () => ((await hasTable()) ? undefined : true), 10_000, 100);
    expect(await gw.exec('nft', ['list', 'tables'])).not.toContain('palisade_');
    expect(await observe()).toEqual({ 'A:8080': true, 'A:9090': true, 'B:8080': true, 'B:9090': true });
    expect((await check(bob.id, 9090)).mode).toBe('unmanaged');
  } catch (error) {
    console.log(`--- agent output\n${agent.output.slice(-40).join('\n')}\n--- API output\n${api?.output.slice(-20).join('\n') ?? ''}`);
    throw error;
  } finally {
    for (const p of processes) p.kill('SIGKILL');
    await http?.dispose();
    await agent.stop();
    killPids(wireguardGoPids(GATEWAY_IF));
    await forwarder?.close();
    await api?.stop();
    for (const ns of namespaces.reverse()) await ns.destroy();
    await run('ip', ['link', 'del', `pah${suffix}`]).catch(() => undefined);
    await dropDatabase(DATABASE);
    rmSync(dir, { recursive: true, force: true });
  }
});
