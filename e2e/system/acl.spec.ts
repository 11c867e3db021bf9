import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { expect, test } from '@playwright/test';
import { buildAgent, waitFor } from './support/gateway-lab';
import { requireRoot, uniqueSuffix } from './support/host';
import { bringUpClient, downloadConfig, json, note, wgKeyPair, withSystemLab } from './support/system-lab';

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
  await withSystemLab('acl', suffix, async (lab) => {
    const processes: ChildProcess[] = [];
    lab.onTeardown(() => {
      for (const p of processes) p.kill('SIGKILL');
    });
    // --- Topology
    const gw = await lab.namespace(`pacl-gw-${suffix}`);
    const svc = await lab.namespace(`pacl-sv-${suffix}`);
    await lab.veth(
      { ifname: `pah${suffix}`, address: `10.234.${S}.1/24` },
      { ns: gw, ifname: `pag${suffix}`, address: `10.234.${S}.2/24` },
    );
    await gw.exec('sysctl', ['-qw', 'net.ipv4.ip_forward=1']);
    await lab.veth(
      { ns: gw, ifname: `pas${suffix}`, address: `10.237.${S}.1/24` },
      { ns: svc, ifname: `paz${suffix}`, address: `${SERVICE_IP}/24` },
    );
    await svc.exec('ip', ['route', 'add', 'default', 'via', `10.237.${S}.1`]);
    processes.push(spawn('ip', ['netns', 'exec', svc.name, process.execPath, '-e', SERVER], { stdio: 'ignore' }));

    // --- The API (jobs on: the ACL expiry sweep every second) on PostgreSQL
    const { grpcPort } = await lab.startApi({ ACL_EXPIRY_INTERVAL_MS: '1000' });
    const forwarder = await lab.forward(`10.234.${S}.1`, grpcPort);
    const http = await lab.signInAdmin();

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

    const table = `palisade_${GATEWAY_IF}`;
    const hasTable = async () => (await gw.exec('nft', ['list', 'tables'])).includes(`table inet ${table}`);
    const grpcUrl = `http://10.234.${S}.1:${forwarder.port}`;
    await lab.startAgent(
      gw,
      { grpcUrl, token: token.token, ifname: GATEWAY_IF, statsIntervalS: 5 },
      'the agent to apply the location and its firewall',
      hasTable,
    );

    // --- A client namespace per user, each with its device's config downloaded through the API
    const connectClient = async (name: string, username: string, underlay: number, ifname: string) => {
      const ns = await lab.namespace(`pacl-${name}-${suffix}`);
      await lab.veth(
        { ns: gw, ifname: `pu${name}${suffix}`, address: `10.${underlay}.${S}.1/24` },
        { ns, ifname: `pv${name}${suffix}`, address: `10.${underlay}.${S}.2/24` },
      );
      if (underlay !== 235) await ns.exec('ip', ['route', 'add', `10.235.${S}.1/32`, 'via', `10.${underlay}.${S}.1`]);
      const keys = await wgKeyPair();
      const created = await json<{ device: { id: number } }>(
        await http.post(`/api/v1/device/${username}`, { data: { name: `${username}-laptop`, wireguard_pubkey: keys.publicKey } }),
        201,
      );
      await bringUpClient(ns, ifname, await downloadConfig(http, location.id, created.device.id, keys.privateKey), lab.dir);
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
        await http.get(
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
      const rule = await json<{ id: number }>(await http.post('/api/v1/acl/rule', { data: body }), 201);
      await json(await http.put('/api/v1/acl/rule/apply', { data: { rules: [rule.id] } }), 204);
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
  });
});
