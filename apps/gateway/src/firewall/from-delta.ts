import type { Delta } from '@palisade/proto';
import { StateError } from '#src/reconcile/normalize.js';
import {
  type FirewallRuleState,
  type FirewallState,
  firewallFromProto,
  listFromProto,
  type MemberState,
  memberFromProto,
  namedLists,
  ruleFromProto,
} from './model.js';

/** True when the delta carries a firewall operation (the agent then touches nftables). */
export const hasFirewallOps = (delta: Delta): boolean => delta.ops.some(({ op }) => op.case?.startsWith('firewall') === true);

/**
 * The desired firewall after a delta's firewall operations, applied in order to `state` (peer
 * operations are ignored here). Unchanged rules and members keep their objects, so the diff in
 * render.ts compares them by reference. A rule or member operation on an unmanaged firewall is a
 * `StateError` (the control plane and the agent disagree: resync). Member lists come before the
 * rules naming them; a list with a known id is unchanged (ids follow the content), and lists no
 * rule names after the delta are dropped.
 */
export function firewallAfterDelta(state: FirewallState, delta: Delta): FirewallState {
  let current = state;
  let rules: Map<string, FirewallRuleState> | null = null;
  let members: Map<string, MemberState> | null = null;
  let lists: Map<string, readonly string[]> | null = null;
  const flush = () => {
    if (rules || members || lists) {
      const nextRules = rules ?? current.rules;
      current = {
        ...current,
        rules: nextRules,
        members: members ?? current.members,
        lists: rules || lists ? namedLists(lists ?? current.lists, nextRules) : current.lists,
      };
    }
    rules = null;
    members = null;
    lists = null;
  };
  const managed = (what: string) => {
    if (!current.managed) throw new StateError(`delta ${delta.revision}: ${what} on an unmanaged firewall`);
  };
  for (const { op } of delta.ops) {
    switch (op.case) {
      case 'firewallReplace':
        flush();
        current = firewallFromProto(op.value.firewall);
        break;
      case 'firewallRuleUpsert': {
        managed('rule upsert');
        if (!op.value.rule) throw new StateError(`delta ${delta.revision}: rule upsert without a rule`);
        rules ??= new Map(current.rules);
        const rule = ruleFromProto(op.value.rule, lists ?? current.lists);
        rules.set(rule.id, rule);
        break;
      }
      case 'firewallRuleRemove':
        managed('rule removal');
        rules ??= new Map(current.rules);
        rules.delete(op.value.id);
        break;
      case 'firewallMemberUpsert': {
        managed('member upsert');
        if (!op.value.member) throw new StateError(`delta ${delta.revision}: member upsert without a member`);
        members ??= new Map(current.members);
        members.set(op.value.member.key, memberFromProto(op.value.member));
        break;
      }
      case 'firewallMemberListUpsert': {
        managed('member list upsert');
        const list = op.value.list;
        if (!list) throw new StateError(`delta ${delta.revision}: member list upsert without a list`);
        if ((lists ?? current.lists).has(list.id)) break;
        lists ??= new Map(current.lists);
        lists.set(list.id, listFromProto(list));
        break;
      }
      case 'firewallMemberRemove':
        managed('member removal');
        members ??= new Map(current.members);
        members.delete(op.value.key);
        break;
      default:
        break;
    }
  }
  flush();
  return current;
}
