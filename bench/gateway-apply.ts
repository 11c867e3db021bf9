/**
 * Issue "Gateways" §7: applying a 10,000-peer snapshot through the gateway agent vs `wg setconf`
 * of the same peers, both on wireguard-go. Target: agent / setconf ≤ 1.5 (median of rounds).
 * Also reported: the same snapshot applied again (a reconnect; must change nothing) and the
 * snapshot with one peer changed (must touch only that peer). The measurement itself is
 * apps/gateway/bench/apply-snapshot.ts (it drives the agent's own modules).
 *
 *   npx tsx bench/gateway-apply.ts [--peers 10000] [--rounds 5]     (from bench/; root: netns + wireguard-go)
 *
 * Not a pass/fail gate: the machine may be shared (its load is recorded in the result).
 */
import { loadavg } from 'node:os';
import { runApplyBench } from '../apps/gateway/bench/apply-snapshot.ts';
import { machineInfo, round, verdict, writeResult } from './lib/common.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const PEERS = arg('peers', 10_000);
const ROUNDS = arg('rounds', 5);
const TARGET_RATIO = 1.5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

const machine = await machineInfo(false);
console.log(`load average at start: ${machine.loadavg_1_5_15.join(', ')} (${machine.cpus} CPUs)`);
const result = await runApplyBench({ peers: PEERS, rounds: ROUNDS });
const agentMs = median(result.rounds.map((r) => r.agentMs));
const setconfMs = median(result.rounds.map((r) => r.setconfMs));
const ratio = agentMs / setconfMs;
const ratios = result.rounds.map((r) => round(r.agentMs / r.setconfMs, 2));

const summary = {
  bench: 'gateway-apply',
  machine,
  command: `cd bench && npx tsx gateway-apply.ts --peers ${PEERS} --rounds ${ROUNDS}`,
  peers: PEERS,
  rounds: ROUNDS,
  snapshot_kib_on_the_wire: round(result.snapshotBytes / 1024, 0),
  setconf_file_kib: round(result.configBytes / 1024, 0),
  median_ms: {
    agent_apply: round(agentMs, 0),
    wg_setconf: round(setconfMs, 0),
    same_snapshot_again: round(median(result.rounds.map((r) => r.noopMs)), 0),
    one_peer_changed: round(median(result.rounds.map((r) => r.onePeerMs)), 0),
  },
  ratio_agent_to_setconf: round(ratio, 2),
  ratio_per_round: ratios,
  target: `agent / wg setconf ≤ ${TARGET_RATIO}`,
  verdict: verdict(ratio <= TARGET_RATIO),
  rounds_ms: result.rounds.map((r) => ({
    agent: round(r.agentMs, 0),
    setconf: round(r.setconfMs, 0),
    same_again: round(r.noopMs, 0),
    one_peer: round(r.onePeerMs, 0),
  })),
  loadavg_1_5_15_at_end: loadavg().map((v) => round(v, 2)),
};

console.log(`\n${PEERS} peers, ${ROUNDS} rounds (median), snapshot ${summary.snapshot_kib_on_the_wire} KiB on the wire`);
console.log(`agent apply:          ${summary.median_ms.agent_apply} ms`);
console.log(`wg setconf:           ${summary.median_ms.wg_setconf} ms`);
console.log(
  `ratio:                ${summary.ratio_agent_to_setconf} (per round ${ratios.join(', ')}; target ≤ ${TARGET_RATIO}: ${summary.verdict})`,
);
console.log(`same snapshot again:  ${summary.median_ms.same_snapshot_again} ms (no action)`);
console.log(`one peer changed:     ${summary.median_ms.one_peer_changed} ms (one action)`);
console.log(`written ${writeResult('gateway-apply', summary)}`);
