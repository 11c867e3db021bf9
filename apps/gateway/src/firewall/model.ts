import {
  type Firewall,
  type FirewallMember,
  type FirewallMemberList,
  FirewallProtocol,
  type FirewallRule,
  FirewallVerdict,
} from '@palisade/proto';
import { isIPv4, isIPv6 } from 'node:net';
import { StateError } from '#src/reconcile/normalize.js';
import { destinationElements, portElements } from './intervals.js';

/**
 * The desired firewall of the interface (gateway.proto `Firewall`), normalised so that equal
 * meaning is equal data: member keys sorted and unique, destinations and ports merged into
 * disjoint intervals (the elements of nft interval sets), addresses in canonical text. Invalid
 * content is a `StateError` (a failed apply: no ack, snapshot requested).
 */
export type Verdict = 'accept' | 'drop';

export interface FirewallRuleState {
  id: string;
  priority: number;
  verdict: Verdict;
  anySource: boolean;
  /** Member keys, unique, in `keyOrder`; empty when `anySource`. Shared with the member list named. */
  members: readonly string[];
  /** The member list the rule names ('' for inline members or any source). */
  memberList: string;
  /** True when the rule names no destination (any). */
  anyDestination: boolean;
  /** Interval-set elements (`10.1.0.0/16`, `10.1.0.5-10.1.0.9`, `10.2.0.1`), disjoint, sorted. */
  dest4: readonly string[];
  dest6: readonly string[];
  /** Port elements (`443`, `8000-8100`), disjoint, sorted; empty: any port. */
  ports: readonly string[];
  /** Empty: any protocol. Sorted. */
  protocols: readonly Protocol[];
  aclRuleId: number;
}

export type Protocol = 'icmp' | 'tcp' | 'udp';

export interface MemberState {
  v4: readonly string[];
  v6: readonly string[];
}

export interface FirewallState {
  /** False: unmanaged, no table. */
  managed: boolean;
  defaultAllow: boolean;
  rules: ReadonlyMap<string, FirewallRuleState>;
  members: ReadonlyMap<string, MemberState>;
  /** Member lists by id (keys in `keyOrder`): the ones the rules name. */
  lists: ReadonlyMap<string, readonly string[]>;
}

export const UNMANAGED: FirewallState = { managed: false, defaultAllow: true, rules: new Map(), members: new Map(), lists: new Map() };

const RULE_ID = /^[a-z0-9_]{1,48}$/;
const LIST_ID = /^[a-z0-9]{1,48}$/;

const PROTOCOLS: Partial<Record<FirewallProtocol, Protocol>> = {
  [FirewallProtocol.TCP]: 'tcp',
  [FirewallProtocol.UDP]: 'udp',
  [FirewallProtocol.ICMP]: 'icmp',
};

const sortedUnique = <T extends string>(values: Iterable<T>): T[] => [...new Set(values)].sort();

/**
 * The canonical order of member keys: shorter first, then by text — the numeric order of
 * `d<device id>`, in which the control plane already sends them (checked in one pass, no sort).
 */
export const keyOrder = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

function memberKeys(keys: readonly string[]): readonly string[] {
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = keyOrder(keys[i - 1]!, keys[i]!) < 0;
  return ordered ? keys : [...new Set(keys)].sort(keyOrder);
}

export function listFromProto(list: FirewallMemberList): readonly string[] {
  if (!LIST_ID.test(list.id)) throw new StateError(`firewall member list '${list.id}': id must be 1-48 of [a-z0-9]`);
  return memberKeys(list.members);
}

/** The rule's member keys: its member list's (which must be known) or its inline ones. */
function sourcesOf(rule: FirewallRule, lists: ReadonlyMap<string, readonly string[]>, where: string): readonly string[] {
  if (rule.anySource) return [];
  if (rule.memberList === '') return memberKeys(rule.members);
  if (rule.members.length > 0) throw new StateError(`${where}: both a member list and inline members`);
  const keys = lists.get(rule.memberList);
  if (!keys) throw new StateError(`${where}: unknown member list '${rule.memberList}'`);
  return keys;
}

export function ruleFromProto(rule: FirewallRule, lists: ReadonlyMap<string, readonly string[]> = new Map()): FirewallRuleState {
  const where = `firewall rule '${rule.id}'`;
  if (!RULE_ID.test(rule.id)) throw new StateError(`${where}: id must be 1-48 of [a-z0-9_]`);
  const verdict = rule.verdict === FirewallVerdict.ACCEPT ? 'accept' : rule.verdict === FirewallVerdict.DROP ? 'drop' : undefined;
  if (!verdict) throw new StateError(`${where}: verdict is unspecified`);
  const protocols = rule.protocols.map((p) => {
    const name = PROTOCOLS[p];
    if (!name) throw new StateError(`${where}: unknown protocol ${p}`);
    return name;
  });
  const { v4, v6 } = destinationElements(rule.destinations, where);
  return {
    id: rule.id,
    priority: rule.priority,
    verdict,
    anySource: rule.anySource,
    members: sourcesOf(rule, lists, where),
    memberList: rule.anySource ? '' : rule.memberList,
    anyDestination: rule.destinations.length === 0,
    dest4: v4,
    dest6: v6,
    ports: portElements(rule.ports, where),
    protocols: sortedUnique(protocols),
    aclRuleId: rule.aclRuleId,
  };
}

export function memberFromProto(member: FirewallMember): MemberState {
  if (member.key === '') throw new StateError('firewall member without a key');
  const v4: string[] = [];
  const v6: string[] = [];
  // Validated, not rewritten: nft reads any spelling, and a diff that sees two spellings of one
  // address deletes and re-adds it in one transaction (deletes go first), which is harmless.
  for (const text of member.addresses) {
    if (isIPv4(text)) v4.push(text);
    else if (isIPv6(text) && !text.includes('%')) v6.push(text.toLowerCase());
    else throw new StateError(`firewall member '${member.key}': '${text}' is not an IP address`);
  }
  return { v4: sortedUnique(v4), v6: sortedUnique(v6) };
}

export function firewallFromProto(firewall: Firewall | undefined): FirewallState {
  if (!firewall?.managed) return UNMANAGED;
  const lists = new Map<string, readonly string[]>();
  for (const l of firewall.memberLists) {
    if (lists.has(l.id)) throw new StateError(`firewall member list '${l.id}' appears twice`);
    lists.set(l.id, listFromProto(l));
  }
  const rules = new Map<string, FirewallRuleState>();
  for (const r of firewall.rules) {
    if (rules.has(r.id)) throw new StateError(`firewall rule '${r.id}' appears twice`);
    rules.set(r.id, ruleFromProto(r, lists));
  }
  const members = new Map<string, MemberState>();
  for (const m of firewall.members) {
    if (members.has(m.key)) throw new StateError(`firewall member '${m.key}' appears twice`);
    members.set(m.key, memberFromProto(m));
  }
  return { managed: true, defaultAllow: firewall.defaultAllow, rules, members, lists: namedLists(lists, rules) };
}

/** `lists` without the ones no rule names (the same map when all are named). */
export function namedLists(
  lists: ReadonlyMap<string, readonly string[]>,
  rules: ReadonlyMap<string, FirewallRuleState>,
): ReadonlyMap<string, readonly string[]> {
  const named = new Set<string>();
  for (const r of rules.values()) if (r.memberList !== '') named.add(r.memberList);
  if (named.size === lists.size) return lists;
  return new Map([...lists].filter(([id]) => named.has(id)));
}

/** The contract's evaluation order: priority ascending, DROP before ACCEPT, id ascending. */
export function compareRules(a: FirewallRuleState, b: FirewallRuleState): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  if (a.verdict !== b.verdict) return a.verdict === 'drop' ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export const orderedRules = (state: FirewallState): FirewallRuleState[] => [...state.rules.values()].sort(compareRules);

const sameList = (a: readonly string[], b: readonly string[]) => a === b || (a.length === b.length && a.every((v, i) => v === b[i]));

export function sameRule(a: FirewallRuleState, b: FirewallRuleState): boolean {
  return (
    a === b ||
    (a.id === b.id &&
      a.priority === b.priority &&
      a.verdict === b.verdict &&
      a.anySource === b.anySource &&
      a.anyDestination === b.anyDestination &&
      a.aclRuleId === b.aclRuleId &&
      sameList(a.members, b.members) &&
      sameList(a.dest4, b.dest4) &&
      sameList(a.dest6, b.dest6) &&
      sameList(a.ports, b.ports) &&
      sameList(a.protocols, b.protocols))
  );
}

export const sameMember = (a: MemberState | undefined, b: MemberState | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && sameList(a.v4, b.v4) && sameList(a.v6, b.v6));

export function sameFirewall(a: FirewallState, b: FirewallState): boolean {
  if (a.managed !== b.managed) return false;
  if (!a.managed) return true;
  if (a.defaultAllow !== b.defaultAllow || a.rules.size !== b.rules.size || a.members.size !== b.members.size) return false;
  for (const [id, rule] of a.rules) {
    const other = b.rules.get(id);
    if (!other || !sameRule(rule, other)) return false;
  }
  for (const [key, member] of a.members) if (!sameMember(member, b.members.get(key))) return false;
  return true;
}
