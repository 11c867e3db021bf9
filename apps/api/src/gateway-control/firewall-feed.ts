import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { type DeltaOp, DeltaOpSchema, type Firewall } from '@palisade/proto';
import {
  candidatePartIds,
  compileFirewall,
  compileMember,
  compileRule,
  type MemberLists,
  memberKey,
} from '#src/modules/acl/compiler/compile.js';
import type { ChangeRow, ControlRepo } from './control.repo.js';

/**
 * The firewall part of the gateway feed (docs/acl.md "Enforcement on gateways"): the snapshot's
 * compiled firewall, and the firewall ops of deltas from the change log's `fw_*` rows
 * (migration 0024), read from the current tables like the peers:
 *
 * - `fw_full` → one FirewallReplace at the last such revision; firewall rows before it send
 *   nothing (the replace sets everything they would have).
 * - `fw_rule` "R" or "R/A" → upserts of rule R's parts now (after upserts of the member lists
 *   they name: an agent ignores a list it has), removes of its other possible part ids (the
 *   manual part, and the parts of its aliases now or named in the keys): the bytes depend on
 *   that rule only, never on the number of other rules.
 * - `fw_member` "D" → upsert of member dD with its addresses in the location, or its removal.
 *
 * With the ACL off (unmanaged) only a replace is sent.
 */
export async function snapshotFirewall(repo: ControlRepo, locationId: number, now: Date): Promise<Firewall | undefined> {
  const input = await repo.aclInput(locationId, now);
  return input && compileFirewall(input);
}

const op = (value: MessageInitShape<typeof DeltaOpSchema>['op']): DeltaOp => create(DeltaOpSchema, { op: value });

export async function firewallDeltaOps(
  repo: ControlRepo,
  locationId: number,
  changes: readonly ChangeRow[],
  now: Date,
): Promise<Map<bigint, DeltaOp[]>> {
  const out = new Map<bigint, DeltaOp[]>();
  const fw = changes.filter((c) => c.kind.startsWith('fw_'));
  if (fw.length === 0) return out;
  const lastFull = fw.filter((c) => c.kind === 'fw_full').at(-1)?.revision;
  const add = (revision: bigint, ops: DeltaOp[]) => out.set(revision, [...(out.get(revision) ?? []), ...ops]);
  if (lastFull !== undefined) {
    const firewall = await snapshotFirewall(repo, locationId, now);
    if (firewall) add(lastFull, [op({ case: 'firewallReplace', value: { firewall } })]);
  }
  const later = fw.filter((c) => lastFull === undefined || c.revision > lastFull);
  const ruleRows = later.filter((c) => c.kind === 'fw_rule');
  const memberRows = later.filter((c) => c.kind === 'fw_member');
  if (ruleRows.length === 0 && memberRows.length === 0) return out;

  // A rule or member named at several revisions is sent once, at the last (its current state).
  const lastOf = <T>(rows: ChangeRow[], id: (c: ChangeRow) => T) => new Map(rows.map((c) => [id(c), c.revision]));
  const ruleAt = lastOf(ruleRows, (c) => Number(c.key.split('/')[0]));
  const detached = new Map<number, number[]>();
  for (const c of ruleRows) {
    const [ruleText, aliasText] = c.key.split('/');
    if (aliasText) detached.set(Number(ruleText), [...(detached.get(Number(ruleText)) ?? []), Number(aliasText)]);
  }
  const input = await repo.aclInput(locationId, now, { ruleIds: [...ruleAt.keys()], withoutAddresses: true });
  if (!input?.aclEnabled) return out;
  const rules = new Map(input.rules.map((r) => [r.id, r]));
  for (const [ruleId, revision] of ruleAt) {
    const rule = rules.get(ruleId);
    const lists: MemberLists = new Map();
    const parts = rule ? compileRule(rule, input.aliases, input.defaultAllow, now, lists) : [];
    const present = new Set(parts.map((p) => p.id));
    const removes = candidatePartIds(ruleId, [...(rule?.aliasIds ?? []), ...(detached.get(ruleId) ?? [])]).filter((id) => !present.has(id));
    add(revision, [
      ...[...lists.values()].map((list) => op({ case: 'firewallMemberListUpsert', value: { list } })),
      ...removes.map((id) => op({ case: 'firewallRuleRemove', value: { id } })),
      ...parts.map((rule) => op({ case: 'firewallRuleUpsert', value: { rule } })),
    ]);
  }
  const memberAt = lastOf(memberRows, (c) => Number(c.key));
  const addresses = new Map((await repo.memberAddresses(locationId, [...memberAt.keys()])).map((d) => [d.id, d.addresses]));
  for (const [id, revision] of memberAt) {
    const held = addresses.get(id);
    add(revision, [
      held && held.length > 0
        ? op({ case: 'firewallMemberUpsert', value: { member: compileMember(id, held) } })
        : op({ case: 'firewallMemberRemove', value: { key: memberKey(id) } }),
    ]);
  }
  return out;
}
