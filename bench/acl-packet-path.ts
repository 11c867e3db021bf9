/**
 * Issue 12 §5, packet path: TCP throughput through a real WireGuard tunnel with the gateway's
 * nftables table of 5,000 ACL rules deployed vs the same tunnel with no table (ACL off), in the
 * same run, in alternating rounds (off/on, then on/off, …). Target: on ≥ 90 % of off (medians).
 *
 *   client ns ── veth (underlay) ── gateway ns ── veth ── service ns (iperf3 -s; TCP 5202, 5203)
 *   wireguard-go on both ends (configured with wg/ip directly); the client's tunnel address is a
 *   fixture member's (10.8.x.y); the gateway forwards the tunnel to the service network.
 *
 *   npx tsx acl-packet-path.ts [--rules 5000] [--members 10000] [--rounds 5] [--duration 10] [--name acl-packet-path]
 *
 * The table is the agent's own (adapters/nft-firewall.ts over firewall/render.ts, applied with
 * `ip netns exec <gateway> nft -f -`) for the fixture's realistic `groups` firewall
 * (apps/gateway/test/support/firewall-fixture.ts) plus one rule allowing the client (and 19 other
 * devices) TCP 5201–5202 to the service, at the highest priority number the fixture uses: it
 * sorts among the very last rules, so a new connection's first packet walks past the others.
 * Each "on" round applies the whole table (untimed for the throughput) and checks that TCP 5203,
 * which no rule allows, is dropped; each "off" round removes the table and checks that 5203 answers.
 *
 * Per round: iperf3 (client → service, one stream) bits/s and retransmits; the CPU of each
 * wireguard-go (user and system, from /proc/<pid>/stat) and of the whole host (/proc/stat); the
 * load average; and the connect time of 200 sequential TCP connections (each SYN walks the rules).
 *
 * Root and iperf3, wg, wireguard-go, nft. Everything it creates (three namespaces, their veths,
 * two wireguard-go, iperf3 and a Node listener) is named with a per-run suffix and removed at
 * the end, also on failure or SIGINT/SIGTERM. Not a pass/fail gate.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { create } from '@bufbuild/protobuf';
import { FirewallProtocol, FirewallRuleSchema, FirewallSchema, FirewallVerdict } from '@palisade/proto';
import { createCommandRunner } from '../apps/gateway/src/adapters/command-runner.ts';
import { createNftFirewall } from '../apps/gateway/src/adapters/nft-firewall.ts';
import { firewallFromProto, orderedRules } from '../apps/gateway/src/firewall/model.ts';
import { largeFirewall, memberAddresses, memberKey } from '../apps/gateway/test/support/firewall-fixture.ts';
import { deleteNs, inNs, ip, isRoot, removeWireGuardSocket, stopPid, uniqueSuffix } from '../apps/gateway/test/support/netns.ts';
import { machineInfo, REPO_ROOT, round, verdict, writeResult } from './lib/common.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const RULES = Number(arg('rules', '5000'));
const MEMBERS = Number(arg('members', '10000'));
const ROUNDS = Number(arg('rounds', '5'));
const DURATION = Number(arg('duration', '10'));
const NAME = arg('name', 'acl-packet-path');
const CONNECTS = 200;
const TARGET = 0.9;
/** The fixture member whose IPv4 address the client's tunnel uses. */
const CLIENT_MEMBER = 4242;

const suffix = uniqueSuffix();
const S = Number(suffix) % 250;
const [clientNs, gatewayNs, serviceNs] = ['c', 'g', 's'].map((r) => `pbp-${r}-${suffix}`) as [string, string, string];
const gatewayIf = `pbg${suffix}`;
const clientIf = `pbc${suffix}`;
const CLIENT_IP = memberAddresses(CLIENT_MEMBER)[0]!;
const GATEWAY_TUNNEL_IP = '10.8.255.1';
const SERVICE_IP = `10.241.${S}.2`;
const LISTEN_PORT = 51820;

const LISTENER = `
const net = require('node:net');
const serve = (s) => { s.on('error', () => {}); s.end(); };
for (const port of [5202, 5203]) net.createServer(serve).listen({ port, host: '0.0.0.0' });
setInterval(() => {}, 1 << 30);
`;
/** argv: host port count timeoutMs → {ok, failed, ms: connect times of the successful ones}. */
const CONNECTOR = `
const net = require('node:net');
const [host, port, count, timeout] = process.argv.slice(1);
(async () => {
  const ms = []; let failed = 0;
  for (let i = 0; i < Number(count); i++) {
    const t0 = process.hrtime.bigint();
    const ok = await new Promise((resolve) => {
      const s = net.connect({ host, port: Number(port), timeout: Number(timeout) });
      const done = (v) => { s.destroy(); resolve(v); };
      s.once('connect', () => done(true)); s.once('timeout', () => done(false)); s.once('error', () => done(false));
    });
    if (ok) ms.push(Number(process.hrtime.bigint() - t0) / 1e6); else failed++;
  }
  process.stdout.write(JSON.stringify({ ok: ms.length, failed, ms }));
})();
`;

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => {
  const s = sorted(xs);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const p99 = (xs: number[]) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))] ?? Number.NaN;
const sh = (ns: string, script: string) => inNs(ns, ['sh', '-ec', script]);

// ------------------------------------------------------------------------------------------------
// Everything started here, removed by name or PID

const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'palisade-acl-path-'));
let cleaned = false;
async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const ifname of [gatewayIf, clientIf]) {
    for (const pid of wireguardGoPids(ifname)) await stopPid(pid);
    removeWireGuardSocket(ifname);
  }
  for (const ns of [clientNs, gatewayNs, serviceNs]) deleteNs(ns);
  rmSync(dir, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

/** PIDs of `wireguard-go -f <ifname>` (interface names carry this run's suffix). */
function wireguardGoPids(ifname: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv[0]?.endsWith('wireguard-go') && argv.at(-1) === ifname) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

async function startWireguardGo(ns: string, ifname: string): Promise<number> {
  children.push(spawn('ip', ['netns', 'exec', ns, 'wireguard-go', '-f', ifname], { stdio: 'ignore' }));
  for (let i = 0; i < 200; i++) {
    const pids = wireguardGoPids(ifname);
    if (existsSync(`/var/run/wireguard/${ifname}.sock`) && pids.length === 1) return pids[0]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`wireguard-go did not create ${ifname}`);
}

// ------------------------------------------------------------------------------------------------
// CPU accounting

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const processCpu = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(f[11]) / CLK_TCK, system: Number(f[12]) / CLK_TCK };
};
const hostCpu = () => {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3]! + f[4]!;
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / CLK_TCK, total: total / CLK_TCK };
};

// ------------------------------------------------------------------------------------------------

function connector(port: number, count: number, timeoutMs: number): { ok: number; failed: number; ms: number[] } {
  const out = inNs(clientNs, [process.execPath, '-e', CONNECTOR, SERVICE_IP, String(port), String(count), String(timeoutMs)]);
  return JSON.parse(out);
}

async function waitUntil(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function iperf(): { bps: number; retransmits: number } {
  const out = inNs(clientNs, ['iperf3', '-c', SERVICE_IP, '-p', '5201', '-t', String(DURATION), '-J']);
  const r = JSON.parse(out) as { end: { sum_received: { bits_per_second: number }; sum_sent: { retransmits?: number } } };
  return { bps: r.end.sum_received.bits_per_second, retransmits: r.end.sum_sent.retransmits ?? 0 };
}

if (!isRoot()) throw new Error('the packet-path bench needs root (network namespaces, wireguard-go, nft)');
for (const tool of ['iperf3', 'wg', 'wireguard-go', 'nft']) {
  try {
    execFileSync('which', [tool], { stdio: 'ignore' });
  } catch {
    throw new Error(`${tool} is missing: apt-get install --no-install-recommends iperf3 wireguard-tools wireguard-go nftables`);
  }
}

const machine = await machineInfo(false);
const commit = execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
console.log(`load average at start: ${machine.loadavg_1_5_15.join(', ')} (${machine.cpus} CPUs), commit ${commit}`);

// --- The firewall: the fixture's realistic rule set plus the client's rule near the end
const firewall = largeFirewall({ aclRules: RULES, members: MEMBERS, sources: 'groups' });
const benchRuleId = `r${RULES + 1}_allow`;
firewall.rules.push(
  create(FirewallRuleSchema, {
    id: benchRuleId,
    priority: Math.max(...firewall.rules.filter((r) => r.priority < 2_147_483_647).map((r) => r.priority)),
    verdict: FirewallVerdict.ACCEPT,
    anySource: false,
    members: Array.from({ length: 20 }, (_, j) => memberKey(CLIENT_MEMBER - 10 + j)),
    destinations: [`${SERVICE_IP}/32`],
    ports: [{ first: 5201, last: 5202 }],
    protocols: [FirewallProtocol.TCP],
    aclRuleId: RULES + 1,
  }),
);
const on = firewallFromProto(firewall);
const off = firewallFromProto(create(FirewallSchema, { managed: false }));
const order = orderedRules(on);
const position = order.findIndex((r) => r.id === benchRuleId) + 1;
console.log(
  `firewall: ${order.length} firewall rules (${RULES} ACL rules + the client's), the client's rule is number ${position} in evaluation order`,
);

interface Round {
  round: number;
  acl: 'off' | 'on';
  mbit_s: number;
  retransmits: number;
  gateway_wireguard_go_cpu_pct: { user: number; system: number };
  /** The gateway's wireguard-go CPU (user + system) per GB received: its cost per byte forwarded. */
  gateway_wireguard_go_cpu_ms_per_gb: number;
  client_wireguard_go_cpu_pct: { user: number; system: number };
  host_busy_pct_of_all_cpus: number;
  loadavg_1_at_start: number;
  connect_ms: { median: number; p99: number; failed: number };
  table_apply_ms: number;
}
const rounds: Round[] = [];

try {
  // --- Topology
  for (const ns of [clientNs, gatewayNs, serviceNs]) {
    ip('netns', 'add', ns);
    ip('-n', ns, 'link', 'set', 'lo', 'up');
  }
  ip('link', 'add', `pbu${suffix}`, 'netns', clientNs, 'type', 'veth', 'peer', 'name', `pbv${suffix}`, 'netns', gatewayNs);
  ip('link', 'add', `pbw${suffix}`, 'netns', gatewayNs, 'type', 'veth', 'peer', 'name', `pbx${suffix}`, 'netns', serviceNs);
  sh(clientNs, `ip addr add 10.242.${S}.2/24 dev pbu${suffix}; ip link set pbu${suffix} up`);
  sh(
    gatewayNs,
    `ip addr add 10.242.${S}.1/24 dev pbv${suffix}; ip link set pbv${suffix} up
    ip addr add 10.241.${S}.1/24 dev pbw${suffix}; ip link set pbw${suffix} up
    sysctl -qw net.ipv4.ip_forward=1`,
  );
  sh(serviceNs, `ip addr add ${SERVICE_IP}/24 dev pbx${suffix}; ip link set pbx${suffix} up; ip route add default via 10.241.${S}.1`);

  // --- The tunnel: wireguard-go on both ends
  const key = () => {
    const privateKey = execFileSync('wg', ['genkey'], { encoding: 'utf8' }).trim();
    return { privateKey, publicKey: execFileSync('wg', ['pubkey'], { input: `${privateKey}\n`, encoding: 'utf8' }).trim() };
  };
  const [gk, ck] = [key(), key()];
  writeFileSync(join(dir, 'gateway.key'), gk.privateKey, { mode: 0o600 });
  writeFileSync(join(dir, 'client.key'), ck.privateKey, { mode: 0o600 });
  const gatewayPid = await startWireguardGo(gatewayNs, gatewayIf);
  const clientPid = await startWireguardGo(clientNs, clientIf);
  sh(
    gatewayNs,
    `wg set ${gatewayIf} listen-port ${LISTEN_PORT} private-key ${join(dir, 'gateway.key')} peer ${ck.publicKey} allowed-ips ${CLIENT_IP}/32
    ip addr add ${GATEWAY_TUNNEL_IP}/16 dev ${gatewayIf}; ip link set ${gatewayIf} up`,
  );
  sh(
    clientNs,
    `wg set ${clientIf} private-key ${join(dir, 'client.key')} peer ${gk.publicKey} endpoint 10.242.${S}.1:${LISTEN_PORT} allowed-ips ${GATEWAY_TUNNEL_IP}/32,10.241.${S}.0/24
    ip addr add ${CLIENT_IP}/32 dev ${clientIf}; ip link set ${clientIf} up
    ip route add ${GATEWAY_TUNNEL_IP}/32 dev ${clientIf}; ip route add 10.241.${S}.0/24 dev ${clientIf}`,
  );
  const mtu = inNs(gatewayNs, ['cat', `/sys/class/net/${gatewayIf}/mtu`]).trim();

  // --- The service
  children.push(spawn('ip', ['netns', 'exec', serviceNs, 'iperf3', '-s', '-p', '5201'], { stdio: 'ignore' }));
  children.push(spawn('ip', ['netns', 'exec', serviceNs, process.execPath, '-e', LISTENER], { stdio: 'ignore' }));
  await waitUntil('the service through the tunnel', () => connector(5202, 1, 1000).ok === 1, 20_000);
  await waitUntil('iperf3 to listen', () => inNs(serviceNs, ['ss', '-Hltn', 'sport = :5201']).trim() !== '', 10_000);

  // --- The agent's nftables adapter on the gateway's interface
  const nft = createNftFirewall({ ifname: gatewayIf, runner: createCommandRunner(['ip', 'netns', 'exec', gatewayNs]) });
  const hasTable = () => inNs(gatewayNs, ['nft', 'list', 'tables']).includes(`palisade_${gatewayIf}`);

  for (let r = 0; r < ROUNDS; r++) {
    for (const acl of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const t0 = performance.now();
      await nft.apply(acl === 'on' ? on : off, { verify: true });
      const applyMs = performance.now() - t0;
      if (hasTable() !== (acl === 'on')) throw new Error(`round ${r + 1} ${acl}: the gateway's table is not as expected`);
      // The table is in force: the port no rule allows is dropped, the allowed one answers.
      const blocked = connector(5203, 1, 1000).ok === 0;
      if (blocked !== (acl === 'on')) throw new Error(`round ${r + 1} ${acl}: TCP 5203 ${blocked ? 'is dropped' : 'answers'}`);
      const load1 = loadavg()[0]!;
      const [g0, c0, h0] = [processCpu(gatewayPid), processCpu(clientPid), hostCpu()];
      const w0 = performance.now();
      const result = iperf();
      const seconds = (performance.now() - w0) / 1000;
      const [g1, c1, h1] = [processCpu(gatewayPid), processCpu(clientPid), hostCpu()];
      const connects = connector(5202, CONNECTS, 2000);
      const pct = (a: number, b: number) => round(((b - a) / seconds) * 100, 0);
      rounds.push({
        round: r + 1,
        acl,
        mbit_s: round(result.bps / 1e6, 1),
        retransmits: result.retransmits,
        gateway_wireguard_go_cpu_pct: { user: pct(g0.user, g1.user), system: pct(g0.system, g1.system) },
        gateway_wireguard_go_cpu_ms_per_gb: round(
          ((g1.user + g1.system - g0.user - g0.system) * 1000) / ((result.bps * DURATION) / 8 / 1e9),
          0,
        ),
        client_wireguard_go_cpu_pct: { user: pct(c0.user, c1.user), system: pct(c0.system, c1.system) },
        host_busy_pct_of_all_cpus: round(((h1.busy - h0.busy) / (h1.total - h0.total)) * 100, 0),
        loadavg_1_at_start: round(load1, 2),
        connect_ms: { median: round(median(connects.ms), 3), p99: round(p99(connects.ms), 3), failed: connects.failed },
        table_apply_ms: round(applyMs, 0),
      });
      const last = rounds.at(-1)!;
      console.log(
        `round ${r + 1} ACL ${acl.padEnd(3)}: ${last.mbit_s} Mbit/s, retransmits ${last.retransmits}, gateway wireguard-go ${last.gateway_wireguard_go_cpu_pct.user}+${last.gateway_wireguard_go_cpu_pct.system} % (user+sys, ${last.gateway_wireguard_go_cpu_ms_per_gb} ms/GB), client wireguard-go ${last.client_wireguard_go_cpu_pct.user}+${last.client_wireguard_go_cpu_pct.system} %, host busy ${last.host_busy_pct_of_all_cpus} %, load ${last.loadavg_1_at_start}, connect median ${last.connect_ms.median} ms p99 ${last.connect_ms.p99} ms (apply ${last.table_apply_ms} ms)`,
      );
    }
  }
  await nft.apply(off);

  const of = (acl: 'on' | 'off') => rounds.filter((x) => x.acl === acl);
  const med = (acl: 'on' | 'off', f: (x: Round) => number) => median(of(acl).map(f));
  const ratio = med('on', (x) => x.mbit_s) / med('off', (x) => x.mbit_s);
  const pairRatios = Array.from({ length: ROUNDS }, (_, i) => {
    const pair = rounds.filter((x) => x.round === i + 1);
    return round(pair.find((x) => x.acl === 'on')!.mbit_s / pair.find((x) => x.acl === 'off')!.mbit_s, 3);
  });
  const summaryOf = (acl: 'on' | 'off') => ({
    median_mbit_s: round(
      med(acl, (x) => x.mbit_s),
      1,
    ),
    median_gateway_wireguard_go_cpu_pct: {
      user: med(acl, (x) => x.gateway_wireguard_go_cpu_pct.user),
      system: med(acl, (x) => x.gateway_wireguard_go_cpu_pct.system),
    },
    median_gateway_wireguard_go_cpu_ms_per_gb: med(acl, (x) => x.gateway_wireguard_go_cpu_ms_per_gb),
    median_client_wireguard_go_cpu_pct: {
      user: med(acl, (x) => x.client_wireguard_go_cpu_pct.user),
      system: med(acl, (x) => x.client_wireguard_go_cpu_pct.system),
    },
    median_host_busy_pct_of_all_cpus: med(acl, (x) => x.host_busy_pct_of_all_cpus),
    median_connect_ms: round(
      med(acl, (x) => x.connect_ms.median),
      3,
    ),
    median_connect_p99_ms: round(
      med(acl, (x) => x.connect_ms.p99),
      3,
    ),
  });
  const summary = {
    bench: 'acl-packet-path',
    machine,
    commit,
    command: `cd bench && npx tsx acl-packet-path.ts --rules ${RULES} --members ${MEMBERS} --rounds ${ROUNDS} --duration ${DURATION}${NAME === 'acl-packet-path' ? '' : ` --name ${NAME}`}`,
    tool: `${execFileSync('iperf3', ['--version'], { encoding: 'utf8' }).split('\n')[0]}, one TCP stream client → service, ${DURATION} s per round`,
    tunnel: `wireguard-go on both ends (${execFileSync('wireguard-go', ['--version'], { encoding: 'utf8' }).trim().split('\n')[0]}), MTU ${mtu}`,
    firewall: {
      rule_set: 'groups (apps/gateway/test/support/firewall-fixture.ts)',
      acl_rules: RULES,
      members: MEMBERS,
      firewall_rules: order.length,
      client_rule_position: position,
      client_rule: `TCP 5201-5202 to ${SERVICE_IP} from 20 devices incl. the client (${CLIENT_IP})`,
    },
    target: `throughput with the table ≥ ${TARGET * 100} % of throughput without (medians)`,
    acl_off: summaryOf('off'),
    acl_on: summaryOf('on'),
    throughput_ratio_on_off: round(ratio, 3),
    pair_ratios_on_off: pairRatios,
    verdict: verdict(ratio >= TARGET),
    rounds,
    loadavg_1_5_15_at_end: loadavg().map((v) => round(v, 2)),
  };
  console.log(JSON.stringify({ ...summary, rounds: undefined }, null, 2));
  console.log(`wrote ${writeResult(NAME, summary)}`);
} finally {
  await cleanup();
}
