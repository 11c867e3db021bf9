/**
 * The measurement behind bench/gateway-apply.ts: a 10,000-peer snapshot applied through the agent
 * vs `wg setconf` of the same peers, both on wireguard-go. It lives in the gateway package
 * because it drives the agent's own modules (and their dependencies); the bench entry adds the
 * machine description and writes the result file.
 *
 * Each round creates two fresh wireguard-go interfaces in a private network namespace (creation
 * is not timed) and times:
 *   agent:   decode the snapshot (protobuf) → desired state → read the interface → diff → apply
 *            (the real userspace adapter, the same code path as the daemon);
 *   setconf: `wg setconf <if> /dev/stdin` of the same configuration (rendered beforehand, untimed).
 * Both run through `ip netns exec` with the same runner, alternating which goes first. Then, on
 * the agent's interface: the same snapshot again (a reconnect: must issue no action) and the
 * snapshot with one peer changed (must touch only that peer).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { clone, create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { type Snapshot, SnapshotSchema } from '@palisade/proto';
import { encodeBase64, generateKeyPair } from '@palisade/wireguard';
import { createCommandRunner } from '#src/adapters/command-runner.js';
import { createUserspaceWireGuard } from '#src/adapters/wireguard-userspace.js';
import type { WireGuardPort } from '#src/ports/wireguard.js';
import type { Action } from '#src/reconcile/actions.js';
import { diff } from '#src/reconcile/diff.js';
import { desiredFromSnapshot } from '#src/reconcile/from-proto.js';
import { deleteNs, ensureWireGuardTools, ip, isRoot, removeWireGuardSocket, stopPid, uniqueSuffix } from '../test/support/netns.js';

export interface ApplyBenchOptions {
  peers: number;
  rounds: number;
  log?: (line: string) => void;
}

export interface ApplyRound {
  agentMs: number;
  setconfMs: number;
  /** Same snapshot again: read + diff, no action. */
  noopMs: number;
  /** Snapshot with one peer's allowed IPs changed: read + diff + one `wg set`. */
  onePeerMs: number;
}

export interface ApplyBenchResult {
  peers: number;
  snapshotBytes: number;
  configBytes: number;
  rounds: ApplyRound[];
}

export function makeSnapshot(count: number): Snapshot {
  const peers = Array.from({ length: count }, (_, i) => ({
    publicKey: encodeBase64(randomBytes(32)),
    presharedKey: encodeBase64(randomBytes(32)),
    allowedIps: [`10.${16 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}/32`],
    persistentKeepalive: i % 4 === 0 ? 25 : 0,
  }));
  const iface = { privateKey: generateKeyPair().privateKey, listenPort: 0, addresses: ['10.15.0.1/16'] };
  return create(SnapshotSchema, { revisionEpoch: 'bench', revision: 1n, interface: iface, peers });
}

/** The `wg setconf` file of the same interface and peers. */
export function renderSetconf(snapshot: Snapshot): string {
  const lines = ['[Interface]', `PrivateKey = ${snapshot.interface!.privateKey}`];
  for (const p of snapshot.peers) {
    lines.push('[Peer]', `PublicKey = ${p.publicKey}`, `PresharedKey = ${p.presharedKey}`, `AllowedIPs = ${p.allowedIps.join(', ')}`);
    if (p.persistentKeepalive > 0) lines.push(`PersistentKeepalive = ${p.persistentKeepalive}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The agent's snapshot path: bytes → desired → read → diff → apply. Returns the actions. */
async function applySnapshot(port: WireGuardPort, wire: Uint8Array): Promise<Action[]> {
  const desired = desiredFromSnapshot(fromBinary(SnapshotSchema, wire));
  const actions = diff((await port.read()).state, desired);
  await port.apply(actions);
  return actions;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

async function round(ns: string, n: number, snapshot: Snapshot, wire: Uint8Array, text: string): Promise<ApplyRound> {
  const runner = createCommandRunner(['ip', 'netns', 'exec', ns]);
  const agent = createUserspaceWireGuard(runner, `pgba${n}${uniqueSuffix()}`.slice(0, 15));
  const plain = createUserspaceWireGuard(runner, `pgbs${n}${uniqueSuffix()}`.slice(0, 15));
  try {
    // Fresh wireguard-go interfaces, created and up outside the timed section.
    for (const port of [agent, plain]) await port.apply([{ type: 'interface.create' }]);
    const timeAgent = async () => (await timed(() => applySnapshot(agent, wire))).ms;
    const timeSetconf = async () => (await timed(() => runner.run(['wg', 'setconf', plain.ifname, '/dev/stdin'], { stdin: text }))).ms;
    // Alternate which goes first, so neither always runs next to a freshly loaded interface.
    const agentFirst = n % 2 === 0;
    const first = await (agentFirst ? timeAgent() : timeSetconf());
    const second = await (agentFirst ? timeSetconf() : timeAgent());
    const [agentMs, setconfMs] = agentFirst ? [first, second] : [second, first];

    const noop = await timed(() => applySnapshot(agent, wire));
    if (noop.value.length !== 0) throw new Error(`re-applying the same snapshot issued ${noop.value.length} actions`);
    const changed = clone(SnapshotSchema, snapshot);
    changed.peers[n % changed.peers.length]!.allowedIps.push('10.250.0.0/24');
    const one = await timed(() => applySnapshot(agent, toBinary(SnapshotSchema, changed)));
    if (one.value.length !== 1 || one.value[0]?.type !== 'peer.update') {
      throw new Error(`changing one peer issued ${JSON.stringify(one.value.map((a) => a.type))}`);
    }
    const peersOnAgent = (await agent.read()).state.peers.size;
    if (peersOnAgent !== snapshot.peers.length) throw new Error(`agent holds ${peersOnAgent} of ${snapshot.peers.length} peers`);
    return { agentMs, setconfMs, noopMs: noop.ms, onePeerMs: one.ms };
  } finally {
    for (const port of [agent, plain]) {
      await stopPid(port.link.pid);
      removeWireGuardSocket(port.ifname);
    }
  }
}

export async function runApplyBench({ peers, rounds, log = console.log }: ApplyBenchOptions): Promise<ApplyBenchResult> {
  if (!isRoot() || !ensureWireGuardTools()) throw new Error('the bench needs root and wireguard-go/wireguard-tools/iproute2');
  const snapshot = makeSnapshot(peers);
  const wire = toBinary(SnapshotSchema, snapshot);
  const text = renderSetconf(snapshot);
  const ns = `pgw-bench-${uniqueSuffix()}`;
  ip('netns', 'add', ns);
  const results: ApplyRound[] = [];
  try {
    for (let n = 0; n < rounds; n++) {
      const r = await round(ns, n, snapshot, wire, text);
      results.push(r);
      log(
        `round ${n + 1}: agent ${r.agentMs.toFixed(0)} ms, wg setconf ${r.setconfMs.toFixed(0)} ms, ` +
          `same snapshot again ${r.noopMs.toFixed(0)} ms, one peer changed ${r.onePeerMs.toFixed(0)} ms`,
      );
    }
  } finally {
    deleteNs(ns);
  }
  return { peers, snapshotBytes: wire.length, configBytes: Buffer.byteLength(text), rounds: results };
}
