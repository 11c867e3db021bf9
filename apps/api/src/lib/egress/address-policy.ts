/**
 * Which IP addresses outgoing requests (webhooks, activity-log streams) may reach. Everything
 * that is not a public unicast address is blocked unless an administrator allow-lists it
 * (`settings.egress_allow_cidrs`). IPv6 forms that embed an IPv4 address (IPv4-mapped, NAT64,
 * 6to4) are judged by the embedded address, both for blocking and for the allow-list.
 */
import { contains, type IpAddress, parseCidr, parseIp } from '@palisade/wireguard';

export interface EgressPolicy {
  /** `settings.egress_allow_cidrs`: CIDRs (or bare addresses) reachable even when blocked. */
  allowCidrs: readonly string[];
}

export type EgressBlockReason = 'loopback' | 'private' | 'link_local' | 'multicast' | 'unspecified' | 'reserved' | 'unresolvable';

const REASON_TEXT: Record<EgressBlockReason, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  link_local: 'a link-local address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
  unresolvable: 'not resolvable to an address',
};

export class EgressBlockedError extends Error {
  readonly address: string;
  readonly reason: EgressBlockReason;

  constructor(address: string, reason: EgressBlockReason, message?: string) {
    super(
      message ??
        (reason === 'unresolvable'
          ? `${address} is not resolvable to an address`
          : `${address} is ${REASON_TEXT[reason]}, outside the egress allow-list`),
    );
    this.name = 'EgressBlockedError';
    this.address = address;
    this.reason = reason;
  }
}

type Range = readonly [cidr: string, reason: Exclude<EgressBlockReason, 'unresolvable'>];

// First match wins. Documentation and benchmarking ranges are blocked too: nothing legitimate
// lives there.
const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'private'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

// Checked after the embedded-IPv4 forms; anything outside 2000::/3 (global unicast) that no
// row names is reserved.
const IPV6_RANGES: readonly Range[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'private'],
  ['100::/64', 'reserved'],
  ['2001::/23', 'reserved'],
  ['2001:db8::/32', 'reserved'],
  ['3fff::/20', 'reserved'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
];

const compile = (ranges: readonly Range[]) =>
  ranges.map(([text, reason]) => {
    const cidr = parseCidr(text);
    if (!cidr) throw new Error(`bad built-in range ${text}`);
    return { cidr, reason };
  });

const V4 = compile(IPV4_RANGES);
const V6 = compile(IPV6_RANGES);
const GLOBAL_UNICAST = parseCidr('2000::/3');
const EMBEDDING = ['::ffff:0:0/96', '64:ff9b::/96'].map((t) => parseCidr(t));
const SIX_TO_FOUR = parseCidr('2002::/16');

/** Parses an address, dropping an IPv6 zone (`fe80::1%eth0`) and URL brackets. */
export function parseAddress(text: string): IpAddress | undefined {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  return parseIp(bare);
}

/** The IPv4 address an IPv6 address stands for (IPv4-mapped, NAT64 well-known, 6to4). */
export function embeddedIpv4(ip: IpAddress): IpAddress | undefined {
  if (ip.version !== 6) return undefined;
  if (EMBEDDING.some((c) => c && contains(c, ip))) return { version: 4, value: ip.value & 0xffffffffn };
  if (SIX_TO_FOUR && contains(SIX_TO_FOUR, ip)) return { version: 4, value: (ip.value >> 80n) & 0xffffffffn };
  return undefined;
}

/** Why an address may not be reached without the allow-list, or undefined when it may. Pure. */
export function blockedReason(ip: string): EgressBlockReason | undefined {
  const parsed = parseAddress(ip);
  if (!parsed) return 'unresolvable';
  return reasonOf(parsed);
}

function reasonOf(ip: IpAddress): EgressBlockReason | undefined {
  const v4 = embeddedIpv4(ip);
  if (v4) return reasonOf(v4);
  const table = ip.version === 4 ? V4 : V6;
  const hit = table.find((r) => contains(r.cidr, ip));
  if (hit) return hit.reason;
  if (ip.version === 6 && GLOBAL_UNICAST && !contains(GLOBAL_UNICAST, ip)) return 'reserved';
  return undefined;
}

/** Whether the address lies inside one of the policy's CIDRs. Pure. */
export function isAllowed(ip: string, policy: EgressPolicy): boolean {
  const parsed = parseAddress(ip);
  if (!parsed) return false;
  const candidates = [parsed];
  const v4 = embeddedIpv4(parsed);
  if (v4) candidates.push(v4);
  return policy.allowCidrs.some((text) => {
    const cidr = parseCidr(text, true);
    return cidr !== undefined && candidates.some((c) => contains(cidr, c));
  });
}

/** Throws EgressBlockedError when the address is blocked and not allow-listed. */
export function assertAddressAllowed(ip: string, policy: EgressPolicy): void {
  const reason = blockedReason(ip);
  if (reason !== undefined && !isAllowed(ip, policy)) throw new EgressBlockedError(ip, reason);
}
