/**
 * The measurement behind bench/nft-apply.ts: the agent's nftables firewall at scale, in a private
 * network namespace (root), through the real adapter (adapters/nft-firewall.ts) — the same code
 * path as the daemon.
 *
 *   full:     a snapshot's firewall (protobuf bytes) → decode → model → whole-table text → one
 *             `nft -f` (from an empty namespace; the table's removal between rounds is not timed)
 *   same:     the same snapshot again (a reconnect): decode, compare, `nft list tables`; no change
 *   rule:     a delta with one FirewallMemberListUpsert (20 devices: a new member list) and one
 *             FirewallRuleUpsert naming it (a new rule at a random position), as the control
 *             plane sends them
 *   modify:   a delta changing one existing rule's ports (with its member list, already known)
 *   member:   a delta with one FirewallMemberUpsert (a device's addresses change; every rule
 *             naming it gets set-element changes)
 * Agent work = everything from the delta's decoded message to nft's exit, nft included.
 */
import { performance } from 'node:perf_hooks';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { DeltaSchema, type Firewall, FirewallSchema } from '@palisade/proto';
import { createCommandRunner } from '#src/adapters/command-runner.js';
import { createNftFirewall } from '#src/adapters/nft-firewall.js';
import { firewallAfterDelta } from '#src/firewall/from-delta.js';
import { type FirewallState, firewallFromProto } from '#src/firewall/model.js';
import { renderChanges, renderTable } from '#src/firewall/render.js';
import { firewallRule, largeFirewall, memberAddresses, memberKey } from '../test/support/firewall-fixture.js';
import { deleteNs, ip, isRoot, uniqueSuffix } from '../test/support/netns.js';

export interface NftBenchOptions {
  aclRules: number;
  members: number;
  /** Who the rules name (test/support/firewall-fixture.ts): group audiences, or random devices. */
  sources: 'groups' | 'random';
  rounds: number;
  deltas: number;
  log?: (line: string) => void;
}

export interface NftBenchResult {
  firewallRules: number;
  setElements: number;
  /** Source elements (address . member list) and distinct member lists. */
  sourceElements: number;
  memberLists: number;
  snapshotBytes: number;
  tableTextBytes: number;
  fullMs: number[];
  sameMs: number[];
  ruleDeltaMs: number[];
  modifyDeltaMs: number[];
  memberDeltaMs: number[];
  ruleDeltaBytes: number;
  /** The JavaScript part (decode, model, nft text) of a full apply and of a one-rule delta. */
  fullJsMs: number[];
  ruleDeltaJsMs: number[];
  /** `nft -f` of a one-element change on the same table: the floor of any transaction here. */
  nftFloorMs: number[];
}

const time = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

export async function runNftBench({
  aclRules,
  members,
  sources,
  rounds,
  deltas,
  log = console.log,
}: NftBenchOptions): Promise<NftBenchResult> {
  if (!isRoot()) throw new Error('the nft bench needs root (network namespaces)');
  const ns = `pgw-nft-${uniqueSuffix()}`;
  ip('netns', 'add', ns);
  try {
    const runner = createCommandRunner(['ip', 'netns', 'exec', ns]);
    const firewall: Firewall = largeFirewall({ aclRules, members, sources });
    const bytes = toBinary(FirewallSchema, firewall);
    const decode = () => firewallFromProto(fromBinary(FirewallSchema, bytes));
    const model = decode();
    const table = renderTable('wgbench0', model);
    const rendered = table.text;
    const count = (line: string | undefined) => (line?.match(/ \. \d+(?=,| \})/g) ?? []).length;
    const setLines = rendered.split('\n').filter((l) => l.startsWith('  set '));
    const setElements = setLines.reduce((sum, l) => sum + count(l), 0);
    const sourceElements = setLines.filter((l) => l.startsWith('  set src')).reduce((sum, l) => sum + count(l), 0);
    const result: NftBenchResult = {
      firewallRules: firewall.rules.length,
      setElements,
      sourceElements,
      memberLists: table.layout.lists.size,
      snapshotBytes: bytes.length,
      tableTextBytes: rendered.length,
      fullMs: [],
      sameMs: [],
      ruleDeltaMs: [],
      modifyDeltaMs: [],
      memberDeltaMs: [],
      ruleDeltaBytes: 0,
      fullJsMs: [],
      ruleDeltaJsMs: [],
      nftFloorMs: [],
    };
    log(
      `${sources}: ${firewall.rules.length} firewall rules (${aclRules} ACL rules), ${members} members, ${table.layout.lists.size} member lists, ${setElements} set elements (${sourceElements} source), snapshot ${bytes.length} bytes`,
    );
    const rnd = (() => {
      let s = 7;
      return () => {
        s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
        return s / 2 ** 31;
      };
    })();
    for (let round = 0; round < rounds; round++) {
      const port = createNftFirewall({ ifname: 'wgbench0', runner });
      await runner.run(['nft', '-f', '-'], { stdin: 'table inet palisade_wgbench0 {}\ndelete table inet palisade_wgbench0\n' });
      result.fullJsMs.push(await time(async () => renderTable('wgbench0', decode())));
      result.fullMs.push(await time(async () => port.apply(decode(), { verify: true })));
      result.sameMs.push(
        await time(async () => {
          if (await port.apply(decode(), { verify: true })) throw new Error('the same snapshot changed the table');
        }),
      );
      log(`round ${round + 1}: full ${result.fullMs.at(-1)!.toFixed(0)} ms, same again ${result.sameMs.at(-1)!.toFixed(0)} ms`);
      if (round !== rounds - 1) continue;
      let state: FirewallState = model;
      const applyDelta = async (delta: ReturnType<typeof create<typeof DeltaSchema>>) => {
        const wire = toBinary(DeltaSchema, delta);
        const decoded = fromBinary(DeltaSchema, wire);
        const jsMs = await time(async () => renderChanges('wgbench0', state, firewallAfterDelta(state, decoded), port.layout()!));
        return {
          jsMs,
          ms: await time(async () => {
            state = firewallAfterDelta(state, decoded);
            await port.apply(state);
          }),
          bytes: wire.length,
        };
      };
      for (let i = 0; i < deltas; i++) {
        const rule = firewallRule(aclRules + 1 + i, rnd, members, 'allow');
        rule.anySource = false;
        rule.members = [];
        rule.memberList = `lbench${i}`;
        const list = { id: rule.memberList, members: Array.from({ length: 20 }, (_, j) => memberKey((i * 20 + j) % members)) };
        const added = await applyDelta(
          create(DeltaSchema, {
            revision: 2n,
            ops: [{ op: { case: 'firewallMemberListUpsert', value: { list } } }, { op: { case: 'firewallRuleUpsert', value: { rule } } }],
          }),
        );
        result.ruleDeltaMs.push(added.ms);
        result.ruleDeltaJsMs.push(added.jsMs);
        result.ruleDeltaBytes = added.bytes;
        const changed = { ...firewall.rules[Math.floor(rnd() * firewall.rules.length)]! };
        changed.ports = [{ first: 1000 + i, last: 1000 + i, $typeName: 'palisade.gateway.v1.PortRange' } as never];
        changed.protocols = [];
        const known = firewall.memberLists.find((l) => l.id === changed.memberList);
        const modifyOps = [
          ...(known ? [{ op: { case: 'firewallMemberListUpsert' as const, value: { list: known } } }] : []),
          { op: { case: 'firewallRuleUpsert' as const, value: { rule: changed } } },
        ];
        result.modifyDeltaMs.push((await applyDelta(create(DeltaSchema, { revision: 3n, ops: modifyOps }))).ms);
        const m = Math.floor(rnd() * members);
        const member = { key: memberKey(m), addresses: memberAddresses(m, i + 1) };
        result.memberDeltaMs.push(
          (await applyDelta(create(DeltaSchema, { revision: 4n, ops: [{ op: { case: 'firewallMemberUpsert', value: { member } } }] }))).ms,
        );
      }
      for (let i = 0; i < deltas; i++) {
        result.nftFloorMs.push(
          await time(() =>
            runner.run(['nft', '-f', '-'], { stdin: `add element inet palisade_wgbench0 src4 { 192.0.2.${i + 1} . 999999 }\n` }),
          ),
        );
      }
      log(`deltas: ${deltas} × (new rule, modified rule, member address change)`);
    }
    return result;
  } finally {
    deleteNs(ns);
  }
}
