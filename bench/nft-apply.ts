/**
 * Issue 12 §5: the gateway agent applies the nftables firewall of 5,000 ACL rules over 10,000
 * devices with one `nft -f` (target < 0.5 s), and a one-rule change as a delta (target < 50 ms of
 * agent work). Also: the same snapshot again (must change nothing), a modified rule and a device
 * address change. The measurement is apps/gateway/bench/nft-apply.ts (it drives the agent's own
 * modules); this entry adds the machine description and writes the result file.
 *
 *   npx tsx nft-apply.ts [--rules 5000] [--members 10000] [--rounds 5] [--deltas 20] [--sources groups,random] [--name nft-apply]
 *
 * Two rule sets (apps/gateway/test/support/firewall-fixture.ts): `groups`, rules naming groups
 * (realistic: many rules share a member list), and `random`, every rule naming its own random
 * devices (the worst case for source elements). Each is measured and reported on its own.
 *
 * Root: everything happens in a private network namespace. Not a pass/fail gate.
 */
import { loadavg } from 'node:os';
import { runNftBench } from '../apps/gateway/bench/nft-apply.ts';
import { machineInfo, round, verdict, writeResult } from './lib/common.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const RULES = Number(arg('rules', '5000'));
const MEMBERS = Number(arg('members', '10000'));
const ROUNDS = Number(arg('rounds', '5'));
const DELTAS = Number(arg('deltas', '20'));
const SOURCES = arg('sources', 'groups,random').split(',') as ('groups' | 'random')[];
const NAME = arg('name', 'nft-apply');
const FULL_TARGET_MS = 500;
const DELTA_TARGET_MS = 50;

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)] ?? Number.NaN;
const max = (xs: number[]) => sorted(xs).at(-1) ?? Number.NaN;

const machine = await machineInfo(false);
console.log(`load average at start: ${machine.loadavg_1_5_15.join(', ')} (${machine.cpus} CPUs)`);
const variant = async (sources: 'groups' | 'random') => {
  const r = await runNftBench({ aclRules: RULES, members: MEMBERS, sources, rounds: ROUNDS, deltas: DELTAS });
  const full = median(r.fullMs);
  const rule = median(r.ruleDeltaMs);
  return {
    sources,
    loadavg_1_5_15_at_start: loadavg().map((v) => round(v, 2)),
    firewall_rules: r.firewallRules,
    set_elements: r.setElements,
    source_elements: r.sourceElements,
    member_lists: r.memberLists,
    snapshot_firewall_kib: round(r.snapshotBytes / 1024, 0),
    nft_text_kib: round(r.tableTextBytes / 1024, 0),
    median_ms: {
      full_apply: round(full, 0),
      same_snapshot_again: round(median(r.sameMs), 1),
      one_rule_added: round(rule, 1),
      one_rule_modified: round(median(r.modifyDeltaMs), 1),
      member_address_change: round(median(r.memberDeltaMs), 1),
    },
    max_ms: {
      full_apply: round(max(r.fullMs), 0),
      one_rule_added: round(max(r.ruleDeltaMs), 1),
      one_rule_modified: round(max(r.modifyDeltaMs), 1),
      member_address_change: round(max(r.memberDeltaMs), 1),
    },
    one_rule_delta_bytes_on_the_wire: r.ruleDeltaBytes,
    javascript_part_median_ms: {
      full_apply: round(median(r.fullJsMs), 0),
      one_rule_added: round(median(r.ruleDeltaJsMs), 1),
    },
    nft_floor_median_ms: round(median(r.nftFloorMs), 1),
    verdicts: { full_apply: verdict(full < FULL_TARGET_MS), one_rule_delta: verdict(rule < DELTA_TARGET_MS) },
    rounds_ms: { full: r.fullMs.map((v) => round(v, 0)), same_again: r.sameMs.map((v) => round(v, 1)) },
  };
};
const variants = [];
for (const sources of SOURCES) variants.push(await variant(sources));
const summary = {
  bench: 'nft-apply',
  machine,
  command: `cd bench && npx tsx nft-apply.ts --rules ${RULES} --members ${MEMBERS} --rounds ${ROUNDS} --deltas ${DELTAS} --sources ${SOURCES.join(',')}`,
  acl_rules: RULES,
  members: MEMBERS,
  targets: { full_apply: `< ${FULL_TARGET_MS} ms (median)`, one_rule_delta: `< ${DELTA_TARGET_MS} ms of agent work (median)` },
  variants,
  loadavg_1_5_15_at_end: loadavg().map((v) => round(v, 2)),
};
console.log(JSON.stringify(summary, null, 2));
console.log(`wrote ${writeResult(NAME, summary)}`);
