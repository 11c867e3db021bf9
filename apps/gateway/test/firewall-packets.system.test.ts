import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { FirewallProtocol, type FirewallRuleSchema, FirewallSchema, FirewallVerdict } from '@palisade/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '#src/adapters/command-runner.js';
import { createNftFirewall } from '#src/adapters/nft-firewall.js';
import { firewallFromProto } from '#src/firewall/model.js';
import { deleteNs, inNs, ip, isRoot, uniqueSuffix } from './support/netns.js';

/**
 * What the rendered rules do to packets. Three namespaces joined by veth pairs: a client with
 * several source addresses (IPv4 and IPv6), the gateway whose client-facing link carries the
 * interface name the agent filters (a veth stands in for WireGuard: the table matches by
 * `iifname`), and a service listening on TCP 8080 and 9090. The firewall is applied through the
 * real adapter (whole tables and deltas); each check is a TCP connect from one source address.
 * Needs root. The product-level test with real tunnels is e2e/system/acl.spec.ts.
 */
const canRun = isRoot();
const suffix = uniqueSuffix();
const [client, gateway, service] = ['c', 'g', 's'].map((r) => `pgw-p${r}-${suffix}`) as [string, string, string];
const ifname = `pgwp${suffix}`;

const SERVER = `
const net = require('node:net');
// The probe resets each connection at once: a socket error must not end the server.
const serve = (s) => { s.on('error', () => {}); s.end('hi'); };
for (const port of [8080, 9090]) net.createServer(serve).listen({ port, host: '::', ipv6Only: false });
setInterval(() => {}, 1 << 30);
`;
const PROBE = `
const net = require('node:net');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, from, to, port } = JSON.parse(line);
  const s = net.connect({ host: to, port, localAddress: from, timeout: 1500 });
  const done = (ok) => { s.destroy(); process.stdout.write(JSON.stringify({ id, ok }) + '\\n'); };
  s.once('connect', () => done(true));
  s.once('timeout', () => done(false));
  s.once('error', () => done(false));
});
`;

function rule(id: string, fields: MessageInitShape<typeof FirewallRuleSchema>) {
  return { id, priority: 100, verdict: FirewallVerdict.ACCEPT, ...fields };
}
const members = [
  { key: 'd1', addresses: ['10.8.0.2', 'fd00:8::2'] },
  { key: 'd2', addresses: ['10.8.0.3'] },
];

describe.skipIf(!canRun)('firewall on packets (system: veth namespaces + real nftables)', () => {
  const started: ChildProcess[] = [];
  let probe: ChildProcess;
  const pending = new Map<number, (ok: boolean) => void>();
  let nextId = 0;
  const port = createNftFirewall({ ifname, runner: createCommandRunner(['ip', 'netns', 'exec', gateway]) });

  const connects = (from: string, to: string, tcpPort: number) =>
    new Promise<boolean>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      probe.stdin!.write(`${JSON.stringify({ id, from, to, port: tcpPort })}\n`);
    });
  /** Which of the given (source, destination, port) connect, as a compact list for one assertion. */
  const reach = async (...checks: [string, string, number][]) => {
    const out: Record<string, boolean> = {};
    for (const [f, t, p] of checks) out[`${f}→${t}:${p}`] = await connects(f, t, p);
    return out;
  };
  const apply = (fw: object) => port.apply(firewallFromProto(create(FirewallSchema, fw as never)), { verify: true });

  beforeAll(async () => {
    for (const ns of [client, gateway, service]) ip('netns', 'add', ns);
    ip('link', 'add', 'pgwpa', 'netns', client, 'type', 'veth', 'peer', 'name', ifname, 'netns', gateway);
    ip('link', 'add', 'pgwpb', 'netns', gateway, 'type', 'veth', 'peer', 'name', 'pgwpc', 'netns', service);
    const sh = (ns: string, script: string) => inNs(ns, ['sh', '-ec', script]);
    sh(
      client,
      `ip link set lo up; ip link set pgwpa up
      ip addr add 10.8.0.2/24 dev pgwpa; ip addr add 10.8.0.3/24 dev pgwpa; ip addr add 10.8.0.4/24 dev pgwpa
      ip addr add fd00:8::2/64 dev pgwpa nodad; ip addr add fd00:8::3/64 dev pgwpa nodad
      ip route add default via 10.8.0.1; ip -6 route add default via fd00:8::1`,
    );
    sh(
      gateway,
      `ip link set lo up; ip link set ${ifname} up; ip link set pgwpb up
      ip addr add 10.8.0.1/24 dev ${ifname}; ip addr add fd00:8::1/64 dev ${ifname} nodad
      ip addr add 10.1.0.1/24 dev pgwpb; ip addr add fd00:1::1/64 dev pgwpb nodad
      sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1`,
    );
    sh(
      service,
      `ip link set lo up; ip link set pgwpc up
      ip addr add 10.1.0.5/24 dev pgwpc; ip addr add 10.2.0.5/32 dev pgwpc; ip addr add fd00:1::5/64 dev pgwpc nodad
      ip route add default via 10.1.0.1; ip -6 route add default via fd00:1::1`,
    );
    started.push(spawn('ip', ['netns', 'exec', service, process.execPath, '-e', SERVER], { stdio: 'ignore' }));
    probe = spawn('ip', ['netns', 'exec', client, process.execPath, '-e', PROBE], { stdio: ['pipe', 'pipe', 'inherit'] });
    started.push(probe);
    createInterface({ input: probe.stdout! }).on('line', (line) => {
      const { id, ok } = JSON.parse(line) as { id: number; ok: boolean };
      pending.get(id)?.(ok);
      pending.delete(id);
    });
    // Unfiltered: wait until the service answers through the gateway.
    for (let i = 0; i < 100 && !(await connects('fd00:8::2', 'fd00:1::5', 9090)); i++) await new Promise((r) => setTimeout(r, 100));
  }, 60_000);

  afterAll(() => {
    for (const c of started) c.kill('SIGKILL');
    for (const ns of [client, gateway, service]) deleteNs(ns);
  });

  it('deny by default: only the named members reach the rule destination and port, IPv4 and IPv6', async () => {
    await apply({
      managed: true,
      defaultAllow: false,
      rules: [rule('r1_allow', { members: ['d1'], destinations: ['10.1.0.0/24', 'fd00:1::/64'], ports: [{ first: 8080, last: 8080 }] })],
      members,
    });
    expect(
      await reach(
        ['10.8.0.2', '10.1.0.5', 8080],
        ['10.8.0.2', '10.1.0.5', 9090],
        ['10.8.0.3', '10.1.0.5', 8080],
        ['fd00:8::2', 'fd00:1::5', 8080],
        ['fd00:8::3', 'fd00:1::5', 8080],
        ['10.8.0.2', '10.2.0.5', 8080],
      ),
    ).toEqual({
      '10.8.0.2→10.1.0.5:8080': true,
      '10.8.0.2→10.1.0.5:9090': false,
      '10.8.0.3→10.1.0.5:8080': false,
      'fd00:8::2→fd00:1::5:8080': true,
      'fd00:8::3→fd00:1::5:8080': false,
      '10.8.0.2→10.2.0.5:8080': false,
    });
  });

  it('follows deltas: a member added to the rule, a deny at the same priority, a member address change', async () => {
    const base = { managed: true, defaultAllow: false, members };
    await apply({
      ...base,
      rules: [rule('r1_allow', { members: ['d1', 'd2'], destinations: ['10.1.0.0/24'], ports: [{ first: 8080, last: 8080 }] })],
    });
    expect(await reach(['10.8.0.3', '10.1.0.5', 8080], ['10.8.0.3', '10.1.0.5', 9090])).toEqual({
      '10.8.0.3→10.1.0.5:8080': true,
      '10.8.0.3→10.1.0.5:9090': false,
    });
    const withDeny = [
      rule('r1_allow', { members: ['d1', 'd2'], destinations: ['10.1.0.0/24'], ports: [{ first: 8080, last: 8080 }] }),
      rule('r1_deny', {
        verdict: FirewallVerdict.DROP,
        members: ['d2'],
        destinations: ['10.1.0.0/24'],
        ports: [{ first: 8080, last: 8080 }],
      }),
    ];
    await apply({ ...base, rules: withDeny });
    expect(await reach(['10.8.0.2', '10.1.0.5', 8080], ['10.8.0.3', '10.1.0.5', 8080])).toEqual({
      '10.8.0.2→10.1.0.5:8080': true,
      '10.8.0.3→10.1.0.5:8080': false,
    });
    // d2 moves from 10.8.0.3 to 10.8.0.4: the deny follows it.
    await apply({ ...base, members: [members[0]!, { key: 'd2', addresses: ['10.8.0.4'] }], rules: withDeny });
    expect(await reach(['10.8.0.3', '10.1.0.5', 8080], ['10.8.0.4', '10.1.0.5', 8080])).toEqual({
      '10.8.0.3→10.1.0.5:8080': false,
      '10.8.0.4→10.1.0.5:8080': false,
    });
    await apply({ ...base, members: [members[0]!, { key: 'd2', addresses: ['10.8.0.4'] }], rules: withDeny.slice(0, 1) });
    expect(await reach(['10.8.0.4', '10.1.0.5', 8080])).toEqual({ '10.8.0.4→10.1.0.5:8080': true });
  });

  it('allow by default: a claim drops everyone but the allowed members on the claimed destination; protocols and unmanaged', async () => {
    const allowed = rule('r1_allow', { members: ['d1'], destinations: ['10.1.0.5'], ports: [{ first: 8080, last: 8080 }] });
    const claim = rule('r1_claim', {
      priority: 2_147_483_647,
      verdict: FirewallVerdict.DROP,
      anySource: true,
      destinations: ['10.1.0.5'],
      ports: [{ first: 8080, last: 8080 }],
    });
    await apply({ managed: true, defaultAllow: true, rules: [allowed, claim], members });
    expect(await reach(['10.8.0.2', '10.1.0.5', 8080], ['10.8.0.3', '10.1.0.5', 8080], ['10.8.0.3', '10.1.0.5', 9090])).toEqual({
      '10.8.0.2→10.1.0.5:8080': true,
      '10.8.0.3→10.1.0.5:8080': false,
      '10.8.0.3→10.1.0.5:9090': true,
    });
    // An allow for UDP only does not cover TCP to the port; the claim (TCP and UDP) drops it.
    await apply({ managed: true, defaultAllow: true, rules: [{ ...allowed, protocols: [FirewallProtocol.UDP] }, claim], members });
    expect(await reach(['10.8.0.2', '10.1.0.5', 8080])).toEqual({ '10.8.0.2→10.1.0.5:8080': false });
    await apply({ managed: false });
    expect(inNs(gateway, ['nft', 'list', 'tables'])).toBe('');
    expect(await reach(['10.8.0.3', '10.1.0.5', 8080])).toEqual({ '10.8.0.3→10.1.0.5:8080': true });
  });
});
