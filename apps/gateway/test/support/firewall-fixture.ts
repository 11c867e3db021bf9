import { create } from '@bufbuild/protobuf';
import { type Firewall, FirewallProtocol, type FirewallRule, FirewallRuleSchema, FirewallSchema, FirewallVerdict } from '@palisade/proto';

/**
 * A deterministic large firewall for the benchmark and the scale test: `aclRules` ACL rules
 * compiled the way the control plane does (docs/acl-design: `rN_allow`, `rN_deny` for about a
 * third of them, `rN_claim` when the default is allow), over `members` devices with one IPv4 and
 * one IPv6 address each. A rule names 1–40 members (a fifth allow any source), 1–3 destinations
 * (a tenth IPv6), 0–2 port ranges and sometimes protocols.
 */
export interface FixtureOptions {
  aclRules: number;
  members: number;
  defaultAllow?: boolean;
  seed?: number;
}

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

export function firewallRule(n: number, rnd: () => number, members: number, part: 'allow' | 'deny' | 'claim'): FirewallRule {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const anySource = part === 'claim' || (part === 'allow' && rnd() < 0.2);
  const picked = anySource ? [] : Array.from({ length: int(1, 40) }, () => memberKey(int(0, members - 1)));
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
    members: picked,
    destinations,
    ports: protocols[0] === FirewallProtocol.ICMP ? [] : ports,
    protocols,
    aclRuleId: n,
  });
}

export function largeFirewall({ aclRules, members, defaultAllow = false, seed = 12 }: FixtureOptions): Firewall {
  const rnd = random(seed);
  const rules: FirewallRule[] = [];
  for (let n = 1; n <= aclRules; n++) {
    rules.push(firewallRule(n, rnd, members, 'allow'));
    if (rnd() < 0.3) rules.push(firewallRule(n, rnd, members, 'deny'));
    if (defaultAllow) rules.push(firewallRule(n, rnd, members, 'claim'));
  }
  return create(FirewallSchema, {
    managed: true,
    defaultAllow,
    rules,
    members: Array.from({ length: members }, (_, i) => ({ key: memberKey(i), addresses: memberAddresses(i) })),
  });
}
