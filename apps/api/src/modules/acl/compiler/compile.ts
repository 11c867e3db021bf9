import { createHash } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import {
  type Firewall,
  type FirewallMember,
  type FirewallMemberList,
  FirewallMemberListSchema,
  FirewallMemberSchema,
  FirewallProtocol,
  type FirewallRule,
  FirewallRuleSchema,
  FirewallSchema,
  FirewallVerdict,
  type PortRange,
  PortRangeSchema,
} from '@palisade/proto';
import type { AclProtocol, CompileAlias, CompileInput, CompileRule, CompileSources } from './types.js';

/**
 * ACL rules → the gateway's first-match firewall (acl-design, docs/acl.md). Pure.
 *
 * Each selector of ACL rule N — its manual part `rN` (manual destinations merged with its
 * component aliases) and one part `rN_aM` per destination alias M — becomes, at the rule's
 * priority, `<part>_deny` (DROP, the denied members; omitted when none) and `<part>_allow`
 * (ACCEPT, the allowed members or any source). Under allow-by-default each part also gets
 * `<part>_claim` (DROP any source, same selector) at CLAIM_PRIORITY, after every rule: a rule
 * claims its destination, so only its members pass. Disabled and expired rules compile to
 * nothing. The agent sorts by (priority, DROP first, id); so does this output.
 *
 * A part's members travel as a member list named by a content-derived id (gateway.proto
 * `FirewallMemberList`): rules naming the same devices share one list, sent once.
 */
export const CLAIM_PRIORITY = 2_147_483_647;

const PROTOCOLS: Record<AclProtocol, FirewallProtocol> = {
  tcp: FirewallProtocol.TCP,
  udp: FirewallProtocol.UDP,
  icmp: FirewallProtocol.ICMP,
};

export const memberKey = (deviceId: number): string => `d${deviceId}`;

export const isRuleActive = (rule: Pick<CompileRule, 'enabled' | 'expires'>, now: Date): boolean =>
  rule.enabled && (rule.expires === null || rule.expires.getTime() > now.getTime());

interface Selector {
  part: string;
  destinations: string[];
  ports: PortRange[];
  protocols: FirewallProtocol[];
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

function toPortRange(text: string): PortRange {
  const [first, last = first] = text.split('-').map((p) => Number(p.trim()));
  return create(PortRangeSchema, { first, last });
}

function selector(part: string, destinations: readonly string[], ports: readonly string[], protocols: readonly AclProtocol[]): Selector {
  return {
    part,
    destinations: unique(destinations.map((d) => d.trim())),
    ports: unique(ports.map((p) => p.trim())).map(toPortRange),
    protocols: unique(protocols).map((p) => PROTOCOLS[p]),
  };
}

/** The rule's selectors: its manual one (when it has one) and one per destination alias. */
export function selectorsOf(rule: CompileRule, aliases: ReadonlyMap<number, CompileAlias>): Selector[] {
  const attached = unique(rule.aliasIds)
    .sort((a, b) => a - b)
    .map((id) => aliases.get(id))
    .filter((a): a is CompileAlias => a !== undefined);
  const components = attached.filter((a) => a.kind === 'component');
  const targets = attached.filter((a) => a.kind === 'destination');
  const out: Selector[] = [];
  const hasManual =
    rule.destinations.length > 0 || rule.ports.length > 0 || rule.protocols.length > 0 || components.length > 0 || targets.length === 0;
  if (hasManual) {
    out.push(
      selector(
        `r${rule.id}`,
        [...rule.destinations, ...components.flatMap((a) => a.destinations)],
        [...rule.ports, ...components.flatMap((a) => a.ports)],
        [...rule.protocols, ...components.flatMap((a) => a.protocols)],
      ),
    );
  }
  for (const a of targets) out.push(selector(`r${rule.id}_a${a.id}`, a.destinations, a.ports, a.protocols));
  return out;
}

const KEY_CACHE: string[] = [];
/** `d<id>` strings, made once per id (a 5,000-rule firewall names devices ~500,000 times). */
const keyOf = (id: number): string => {
  if (id < 0 || id >= 1 << 24) return memberKey(id);
  let key = KEY_CACHE[id];
  if (key === undefined) {
    key = memberKey(id);
    KEY_CACHE[id] = key;
  }
  return key;
};

const isSortedUnique = (ids: readonly number[]) => ids.every((id, i) => i === 0 || (ids[i - 1] as number) < id);

/**
 * Member keys of a side, sorted by device id. The loader shares one device array between the
 * rules naming the same group (or all users); so is the key array made from it.
 */
const keyArrays = new WeakMap<readonly number[], string[]>();
function keysOf(sources: CompileSources): string[] {
  const cached = keyArrays.get(sources.devices);
  if (cached) return cached;
  const ids = isSortedUnique(sources.devices) ? sources.devices : unique(sources.devices).sort((a, b) => a - b);
  const keys = ids.map(keyOf);
  keyArrays.set(sources.devices, keys);
  return keys;
}

const listIds = new WeakMap<readonly string[], string>();

/** The id of a member list: "l" + a digest of its keys (equal ids mean equal lists). */
export function memberListId(keys: readonly string[]): string {
  let id = listIds.get(keys);
  if (id === undefined) {
    id = `l${createHash('sha256').update(keys.join(',')).digest('hex').slice(0, 32)}`;
    listIds.set(keys, id);
  }
  return id;
}

/** The member lists named by compiled rules, by id (filled by `compileRule`). */
export type MemberLists = Map<string, FirewallMemberList>;

/** Names `keys` as a list in `lists`: its id, or '' for no member at all. */
function listOf(keys: string[], lists: MemberLists): string {
  if (keys.length === 0) return '';
  const id = memberListId(keys);
  if (!lists.has(id)) lists.set(id, { $typeName: FirewallMemberListSchema.typeName, id, members: keys } as FirewallMemberList);
  return id;
}

/**
 * A FirewallRule as the plain object protobuf-es messages are (what `create` would return for
 * these fields, without its per-field reflection: a 5,000-rule firewall has ~6,000 of them).
 */
function firewallRule(r: {
  id: string;
  priority: number;
  verdict: FirewallVerdict;
  anySource: boolean;
  memberList: string;
  selector: Selector;
  aclRuleId: number;
}): FirewallRule {
  return {
    $typeName: FirewallRuleSchema.typeName,
    id: r.id,
    priority: r.priority,
    verdict: r.verdict,
    anySource: r.anySource,
    members: [],
    memberList: r.memberList,
    destinations: r.selector.destinations,
    ports: r.selector.ports,
    protocols: r.selector.protocols,
    aclRuleId: r.aclRuleId,
  } as FirewallRule;
}

/**
 * The firewall rules of one ACL rule (empty when disabled or expired), in agent order; the
 * member lists they name are added to `lists`.
 */
export function compileRule(
  rule: CompileRule,
  aliases: ReadonlyMap<number, CompileAlias>,
  defaultAllow: boolean,
  now: Date,
  lists: MemberLists,
): FirewallRule[] {
  if (!isRuleActive(rule, now)) return [];
  const out: FirewallRule[] = [];
  const denied = rule.denied.any ? '' : listOf(keysOf(rule.denied), lists);
  const allowed = rule.allowed.any ? '' : listOf(keysOf(rule.allowed), lists);
  for (const s of selectorsOf(rule, aliases)) {
    const part = (id: string, priority: number, verdict: FirewallVerdict, anySource: boolean, memberList: string) =>
      firewallRule({ id, priority, verdict, anySource, memberList, selector: s, aclRuleId: rule.id });
    if (rule.denied.any || rule.denied.devices.length > 0) {
      out.push(part(`${s.part}_deny`, rule.priority, FirewallVerdict.DROP, rule.denied.any, denied));
    }
    out.push(part(`${s.part}_allow`, rule.priority, FirewallVerdict.ACCEPT, rule.allowed.any, allowed));
    if (defaultAllow) out.push(part(`${s.part}_claim`, CLAIM_PRIORITY, FirewallVerdict.DROP, true, ''));
  }
  return out.sort(compareRules);
}

/**
 * Every id the rule's parts may have had with these aliases attached (now or before): what a
 * rule change removes when the rule no longer compiles to it.
 */
export function candidatePartIds(ruleId: number, aliasIds: Iterable<number>): string[] {
  const parts = [`r${ruleId}`, ...unique(aliasIds).map((a) => `r${ruleId}_a${a}`)];
  return parts.flatMap((p) => [`${p}_deny`, `${p}_allow`, `${p}_claim`]);
}

const VERDICT_RANK: Record<number, number> = { [FirewallVerdict.DROP]: 0, [FirewallVerdict.ACCEPT]: 1 };

const byteCompare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The agent's order: priority ascending, DROP before ACCEPT, id ascending (ASCII ids: bytes). */
export function compareRules(a: FirewallRule, b: FirewallRule): number {
  return a.priority - b.priority || (VERDICT_RANK[a.verdict] ?? 2) - (VERDICT_RANK[b.verdict] ?? 2) || byteCompare(a.id, b.id);
}

export function compileMember(deviceId: number, addresses: readonly string[]): FirewallMember {
  return create(FirewallMemberSchema, { key: memberKey(deviceId), addresses: [...addresses] });
}

/** The location's whole firewall. */
export function compileFirewall(input: CompileInput): Firewall {
  if (!input.aclEnabled) return create(FirewallSchema, { managed: false });
  const lists: MemberLists = new Map();
  const rules = input.rules.flatMap((r) => compileRule(r, input.aliases, input.defaultAllow, input.now, lists)).sort(compareRules);
  const memberLists = [...lists.values()].sort((a, b) => byteCompare(a.id, b.id));
  const members = [...input.devices]
    .filter((d) => d.addresses.length > 0)
    .sort((a, b) => a.id - b.id)
    .map((d) => compileMember(d.id, d.addresses));
  return create(FirewallSchema, { managed: true, defaultAllow: input.defaultAllow, rules, members, memberLists });
}
