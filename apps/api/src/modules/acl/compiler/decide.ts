import { type Firewall, FirewallProtocol, type FirewallRule, FirewallVerdict } from '@palisade/proto';
import { contains, type IpAddress, parseCidr, parseIp } from '@palisade/wireguard';
import { compareRules } from './compile.js';
import type { AclProtocol } from './types.js';

/**
 * The verdict of a compiled firewall for one packet, exactly as the agent's nftables chain takes
 * it: the first rule (agent order) whose source, destination family and set, port and protocol
 * match, else the default policy. Pure; the access check and the tests use it.
 */
export interface Packet {
  /** Member keys of the source (`d<device id>`); all of a user's devices decide alike. */
  sources: ReadonlySet<string>;
  destination: string;
  /** Destination port for TCP and UDP; ignored for ICMP. */
  port?: number;
  protocol: AclProtocol;
}

export type Decision = { verdict: 'allow' | 'deny'; rule: FirewallRule } | { verdict: 'allow' | 'deny'; rule: null };

const PROTOCOL_OF: Record<AclProtocol, FirewallProtocol> = {
  tcp: FirewallProtocol.TCP,
  udp: FirewallProtocol.UDP,
  icmp: FirewallProtocol.ICMP,
};

/** `10.1.0.0/16`, `10.1.0.5`, `10.1.0.5-10.1.0.9` contains `ip` (same family only). */
export function destinationContains(text: string, ip: IpAddress): boolean {
  const dash = text.indexOf('-');
  if (dash >= 0) {
    const lo = parseIp(text.slice(0, dash).trim());
    const hi = parseIp(text.slice(dash + 1).trim());
    return !!lo && !!hi && lo.version === ip.version && hi.version === ip.version && lo.value <= ip.value && ip.value <= hi.value;
  }
  const cidr = parseCidr(text.trim(), true);
  return !!cidr && contains(cidr, ip);
}

function protocolMatches(rule: FirewallRule, packet: Packet): boolean {
  const protocol = PROTOCOL_OF[packet.protocol];
  if (rule.ports.length === 0) return rule.protocols.length === 0 || rule.protocols.includes(protocol);
  if (protocol === FirewallProtocol.ICMP) return rule.protocols.includes(FirewallProtocol.ICMP);
  const l4 = rule.protocols.length === 0 || rule.protocols.includes(protocol);
  const port = packet.port;
  return l4 && port !== undefined && rule.ports.some((r) => r.first <= port && port <= r.last);
}

/** The member keys of a rule's sources: its member list's, or its inline ones. */
export type ListResolver = (rule: FirewallRule) => readonly string[];

export const listResolver = (firewall: Firewall): ListResolver => {
  const lists = new Map(firewall.memberLists.map((l) => [l.id, l.members]));
  return (rule) => (rule.memberList ? (lists.get(rule.memberList) ?? []) : rule.members);
};

export function ruleMatches(rule: FirewallRule, packet: Packet, ip: IpAddress, membersOf: ListResolver): boolean {
  if (!rule.anySource && !membersOf(rule).some((m) => packet.sources.has(m))) return false;
  if (rule.destinations.length > 0 && !rule.destinations.some((d) => destinationContains(d, ip))) return false;
  return protocolMatches(rule, packet);
}

export function decide(firewall: Firewall, packet: Packet): Decision {
  const ip = parseIp(packet.destination);
  if (!ip) throw new Error(`not an IP address: ${packet.destination}`);
  if (!firewall.managed) return { verdict: 'allow', rule: null };
  const membersOf = listResolver(firewall);
  for (const rule of [...firewall.rules].sort(compareRules)) {
    if (ruleMatches(rule, packet, ip, membersOf)) return { verdict: rule.verdict === FirewallVerdict.ACCEPT ? 'allow' : 'deny', rule };
  }
  return { verdict: firewall.defaultAllow ? 'allow' : 'deny', rule: null };
}
