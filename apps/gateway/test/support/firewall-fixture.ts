import { create } from '@bufbuild/protobuf';
import { type Firewall, FirewallProtocol, type FirewallRule, FirewallRuleSchema, FirewallSchema, FirewallVerdict } from '@palisade/proto';

/**
 * A deterministic large firewall for the benchmark and the scale test: `aclRules` ACL rules
 * compiled the way the control plane does (docs/acl-design: `rN_allow`, `rN_deny` for about a
 * third of them, `rN_claim` when the default is allow), over `members` devices with one IPv4 and
 * one IPv6 address each; 1–3 destinations (a tenth IPv6), 0–2 port ranges, sometimes protocols.
 *
 * Who a rule names (`sources`):
 * - `random` (worst case): each rule names 1–40 devices drawn at random (a fifth allow any
 *   source), so no two rules share a member list.
 * - `groups` (realistic, see GROUPS): rules name groups. The last 2 % of the devices are network
 *   devices, the others belong to USERS users (device i to user i mod USERS); user u is in group
 *   u mod GROUPS and a third of the users also in a second group. The rules are written for
 *   AUDIENCES audiences (teams), picked with a skew (small indexes more often): an audience is
 *   1–3 groups, plus 1–3 single users in a third of them and 1–2 network devices in a tenth.
 *   One allow part in a hundred names all users; one in ten any source. The compiler sends each
 *   rule's flat device list in device-id order, as here.
 */
export interface FixtureOptions {
  aclRules: number;
  members: number;
  defaultAllow?: boolean;
  seed?: number;
  sources?: 'random' | 'groups';
}

export const GROUPS = { users: 2_000, groups: 200, audiences: 300, networkDeviceShare: 0.02 };

function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

export const memberKey = (i: number) => `d${i + 1}`;
export const memberAddresses = (i: number, generation = 0) => [
  `10.${8 + generation}.${(i >> 8) & 255}.${i & 255}`,
  `fd00:8:${generation.toString(16)}::${(i + 1).toString(16)}`,
];

/** Picks a rule's members: null for any source, else member keys. */
type Audience = (rnd: () => number, part: 'allow' | 'deny') => string[] | null;

const randomAudience =
  (members: number): Audience =>
  (rnd, part) => {
    const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    if (part === 'allow' && rnd() < 0.2) return null;
    return Array.from({ length: int(1, 40) }, () => memberKey(int(0, members - 1)));
  };

function groupAudiences(members: number, rnd: () => number): Audience {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const userDevices = Math.round(members * (1 - GROUPS.networkDeviceShare));
  const devicesOf = Array.from({ length: GROUPS.users }, () => [] as number[]);
  for (let i = 0; i < userDevices; i++) devicesOf[i % GROUPS.users]!.push(i);
  const groupUsers = Array.from({ length: GROUPS.groups }, () => [] as number[]);
  for (let u = 0; u < GROUPS.users; u++) {
    groupUsers[u % GROUPS.groups]!.push(u);
    if (rnd() < 1 / 3) groupUsers[int(0, GROUPS.groups - 1)]!.push(u);
  }
  const keysOf = (devices: Iterable<number>) => [...new Set(devices)].sort((a, b) => a - b).map(memberKey);
  const audiences = Array.from({ length: GROUPS.audiences }, () => {
    const devices: number[] = [];
    for (let g = int(1, 3); g > 0; g--) for (const u of groupUsers[int(0, GROUPS.groups - 1)]!) devices.push(...devicesOf[u]!);
    if (rnd() < 1 / 3) for (let k = int(1, 3); k > 0; k--) devices.push(...devicesOf[int(0, GROUPS.users - 1)]!);
    if (rnd() < 0.1) for (let k = int(1, 2); k > 0; k--) devices.push(int(userDevices, members - 1));
    return keysOf(devices);
  });
  const allUsers = keysOf(Array.from({ length: userDevices }, (_, i) => i));
  return (r, part) => {
    if (part === 'allow' && r() < 0.1) return null;
    if (part === 'allow' && r() < 0.01) return allUsers;
    return audiences[Math.floor(GROUPS.audiences * r() ** 2)]!;
  };
}

export function firewallRule(
  n: number,
  rnd: () => number,
  members: number,
  part: 'allow' | 'deny' | 'claim',
  audience: Audience = randomAudience(members),
): FirewallRule {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const picked = part === 'claim' ? null : audience(rnd, part);
  const anySource = picked === null;
  const destinations = Array.from({ length: int(1, 3) }, () =>
    rnd() < 0.1 ? `fd10:${int(0, 0xffff).toString(16)}::/64` : `172.${16 + int(0, 15)}.${int(0, 255)}.0/${int(24, 28)}`,
  );
  const ports = Array.from({ length: int(0, 2) }, () => {
    const first = int(1, 60_000);
    return { first, last: rnd() < 0.3 ? first + int(1, 100) : first };
  });
  const protocols = rnd() < 0.3 ? [FirewallProtocol.TCP] : rnd() < 0.1 ? [FirewallProtocol.ICMP] : [];
  return create(FirewallRuleSchema, {
    id: `r${n}_${part}`,
    priority: part === 'claim' ? 2_147_483_647 : int(0, 1000),
    verdict: part === 'allow' ? FirewallVerdict.ACCEPT : FirewallVerdict.DROP,
    anySource,
    members: picked ?? [],
    destinations,
    ports: protocols[0] === FirewallProtocol.ICMP ? [] : ports,
    protocols,
    aclRuleId: n,
  });
}

export function largeFirewall({ aclRules, members, defaultAllow = false, seed = 12, sources = 'random' }: FixtureOptions): Firewall {
  const rnd = random(seed);
  const audience = sources === 'groups' ? groupAudiences(members, rnd) : randomAudience(members);
  const rules: FirewallRule[] = [];
  for (let n = 1; n <= aclRules; n++) {
    rules.push(firewallRule(n, rnd, members, 'allow', audience));
    if (rnd() < 0.3) rules.push(firewallRule(n, rnd, members, 'deny', audience));
    if (defaultAllow) rules.push(firewallRule(n, rnd, members, 'claim', audience));
  }
  // Each distinct member list once, named by the rules (as the control plane sends them).
  const lists = new Map<string, { id: string; members: string[] }>();
  for (const rule of rules) {
    if (rule.members.length === 0) continue;
    const content = rule.members.join(',');
    let list = lists.get(content);
    if (!list) {
      list = { id: `l${lists.size}`, members: rule.members };
      lists.set(content, list);
    }
    rule.memberList = list.id;
    rule.members = [];
  }
  return create(FirewallSchema, {
    managed: true,
    defaultAllow,
    rules,
    memberLists: [...lists.values()],
    members: Array.from({ length: members }, (_, i) => ({ key: memberKey(i), addresses: memberAddresses(i) })),
  });
}
