/**
 * Bench: apply a 10,000-peer snapshot through the agent vs `wg setconf` of the same peers.
 *
 * Each round creates two fresh wireguard-go interfaces in a private network namespace (creation
 * is not timed) and times:
 *   agent:   decode the snapshot (protobuf) → desired state → read the interface → diff → apply
 *            (the real userspace adapter, the same code path as the daemon);
 *   setconf: `wg setconf <if> /dev/stdin` of the same configuration (rendered beforehand, untimed).
 * Both run through `ip netns exec` with the same runner, alternating which goes first. Also times
 * the agent re-applying the same snapshot (a reconnect: must be a no-op). Target: agent / setconf
 * ≤ 1.5 (median of rounds). Not a pass/fail gate (ARCHITECTURE §8): the machine may be shared.
 *
 *   sudo pnpm --filter @palisade/gateway bench [-- --peers 10000 --rounds 3]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { SnapshotSchema } from '@palisade/proto';
import { encodeBase64, generateKeyPair } from '@palisade/wireguard';
import { createCommandRunner } from '#src/adapters/command-runner.js';
import { createUserspaceWireGuard } from '#src/adapters/wireguard-userspace.js';
import { diff } from '#src/reconcile/diff.js';
import { desiredFromSnapshot } from '#src/reconcile/from-proto.js';
import { deleteNs, ensureWireGuardTools, ip, isRoot, removeWireGuardSocket, stopPid, uniqueSuffix } from '../test/support/netns.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const PEERS = arg('peers', 10_000);
const ROUNDS = arg('rounds', 3);

function makeSnapshot(count: number) {
  const peers = Array.from({ length: count }, (_, i) => ({
    publicKey: encodeBase64(randomBytes(32)),
    presharedKey: encodeBase64(randomBytes(32)),
    allowedIps: [`10.${16 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}/32`],
    persistentKeepalive: i % 4 === 0 ? 25 : 0,
  }));
  const iface = { privateKey: generateKeyPair().privateKey, listenPort: 0, addresses: ['10.15.0.1/16'] };
  return create(SnapshotSchema, { revisionEpoch: 'bench', revision: 1n, interface: iface, peers });
}

function renderSetconf(snapshot: ReturnType<typeof makeSnapshot>): string {
  const lines = ['[Interface]', `PrivateKey = ${snapshot.interface!.privateKey}`];
  for (const p of snapshot.peers) {
    lines.push('[Peer]', `PublicKey = ${p.publicKey}`, `PresharedKey = ${p.presharedKey}`, `AllowedIPs = ${p.allowedIps.join(', ')}`);
    if (p.persistentKeepalive > 0) lines.push(`PersistentKeepalive = ${p.persistentKeepalive}`);
  }
  return `${lines.join('\n')}\n`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function round(ns: string, n: number, wire: Uint8Array, text: string) {
  const runner = createCommandRunner(['ip', 'netns', 'exec', ns]);
  const agent = createUserspaceWireGuard(runner, `pgba${n}${uniqueSuffix()}`.slice(0, 15));
  const plain = createUserspaceWireGuard(runner, `pgbs${n}${uniqueSuffix()}`.slice(0, 15));
  try {
    // Fresh wireguard-go interfaces, created and up outside the timed section.
    for (const port of [agent, plain]) await port.apply([{ type: 'interface.create' }]);
    const timeAgent = async () => {
      const t = performance.now();
      const desired = desiredFromSnapshot(fromBinary(SnapshotSchema, wire));
      await agent.apply(diff((await agent.read()).state, desired));
      return performance.now() - t;
    };
    const timeSetconf = async () => {
      const t = performance.now();
      await runner.run(['wg', 'setconf', plain.ifname, '/dev/stdin'], { stdin: text });
      return performance.now() - t;
    };
    // Alternate which goes first, so neither always runs next to a freshly loaded interface.
    const agentFirst = n % 2 === 0;
    const first = await (agentFirst ? timeAgent() : timeSetconf());
    const second = await (agentFirst ? timeSetconf() : timeAgent());
    const [agentMs, setconfMs] = agentFirst ? [first, second] : [second, first];
    const t = performance.now();
    const again = diff((await agent.read()).state, desiredFromSnapshot(fromBinary(SnapshotSchema, wire)));
    await agent.apply(again);
    const noopMs = performance.now() - t;
    const peersOnAgent = (await agent.read()).state.peers.size;
    if (peersOnAgent !== PEERS || again.length !== 0)
      throw new Error(`agent holds ${peersOnAgent} peers; re-apply issued ${again.length} actions`);
    return { agentMs, setconfMs, noopMs };
  } finally {
    for (const port of [agent, plain]) {
      await stopPid(port.link.pid);
      removeWireGuardSocket(port.ifname);
    }
  }
}

async function main() {
  if (!isRoot() || !ensureWireGuardTools()) throw new Error('the bench needs root and wireguard-go/wireguard-tools/iproute2');
  const snapshot = makeSnapshot(PEERS);
  const wire = toBinary(SnapshotSchema, snapshot);
  const text = renderSetconf(snapshot);
  const ns = `pgw-bench-${uniqueSuffix()}`;
  ip('netns', 'add', ns);
  const results: Awaited<ReturnType<typeof round>>[] = [];
  try {
    for (let n = 0; n < ROUNDS; n++) {
      const r = await round(ns, n, wire, text);
      results.push(r);
      console.log(
        `round ${n + 1}: agent ${r.agentMs.toFixed(0)} ms, wg setconf ${r.setconfMs.toFixed(0)} ms, no-op re-apply ${r.noopMs.toFixed(0)} ms`,
      );
    }
  } finally {
    deleteNs(ns);
  }
  const agent = median(results.map((r) => r.agentMs));
  const setconf = median(results.map((r) => r.setconfMs));
  console.log(`\n${PEERS} peers, ${ROUNDS} rounds (median), snapshot ${(wire.length / 1024).toFixed(0)} KiB on the wire`);
  console.log(`agent apply:     ${agent.toFixed(0)} ms`);
  console.log(`wg setconf:      ${setconf.toFixed(0)} ms`);
  console.log(`ratio:           ${(agent / setconf).toFixed(2)} (target ≤ 1.5)`);
  console.log(`no-op re-apply:  ${median(results.map((r) => r.noopMs)).toFixed(0)} ms`);
  console.log(
    `load average:    ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (${execFileSync('nproc', { encoding: 'utf8' }).trim()} CPUs)`,
  );
}

await main();
