import { contains, parseCidr, parseIp } from '@palisade/wireguard';
import type { AclProtocol, CompileAlias, CompileInput, CompileRule } from './types.js';

/**
 * The ACL semantics written the plain way (acl-design "Decision for a packet"), straight over the
 * compiler's input, for the property tests to hold the compiled first-match list against.
 */
interface RefSelector {
  destinations: readonly string[];
  ports: readonly string[];
  protocols: readonly AclProtocol[];
}

function inDestination(text: string, destination: string): boolean {
  const ip = parseIp(destination);
  if (!ip) return false;
  const [lo, hi] = text.split('-');
  if (hi !== undefined) {
    const a = parseIp(lo ?? '');
    const b = parseIp(hi);
    return !!a && !!b && a.version === ip.version && b.version === ip.version && a.value <= ip.value && ip.value <= b.value;
  }
  const cidr = parseCidr(text, true);
  return !!cidr && contains(cidr, ip);
}

function inPorts(ports: readonly string[], port: number | undefined): boolean {
  return ports.some((p) => {
    const [lo, hi = lo] = p.split('-').map(Number);
    return port !== undefined && (lo ?? 0) <= port && port <= (hi ?? 0);
  });
}

function selectorMatches(s: RefSelector, destination: string, port: number | undefined, protocol: AclProtocol): boolean {
  if (s.destinations.length > 0 && !s.destinations.some((d) => inDestination(d, destination))) return false;
  if (s.ports.length === 0) return s.protocols.length === 0 || s.protocols.includes(protocol);
  if (protocol === 'icmp') return s.protocols.includes('icmp');
  return (s.protocols.length === 0 || s.protocols.includes(protocol)) && inPorts(s.ports, port);
}

function selectors(rule: CompileRule, aliases: ReadonlyMap<number, CompileAlias>): RefSelector[] {
  const attached = rule.aliasIds.map((id) => aliases.get(id)).filter((a) => a !== undefined);
  const components = attached.filter((a) => a.kind === 'component');
  const targets = attached.filter((a) => a.kind === 'destination');
  const manual: RefSelector = {
    destinations: [...rule.destinations, ...components.flatMap((a) => a.destinations)],
    ports: [...rule.ports, ...components.flatMap((a) => a.ports)],
    protocols: [...rule.protocols, ...components.flatMap((a) => a.protocols)],
  };
  // acl-design: the manual selector exists with manual destinations, ports, protocols or component
  // aliases, or without any destination alias.
  const hasManual = rule.destinations.length + rule.ports.length + rule.protocols.length + components.length > 0 || targets.length === 0;
  return [...(hasManual ? [manual] : []), ...targets];
}

export function referenceVerdict(
  input: CompileInput,
  source: ReadonlySet<number>,
  destination: string,
  port: number | undefined,
  protocol: AclProtocol,
): { verdict: 'allow' | 'deny'; by: 'named' | 'claim' | 'default'; ruleIds: number[] } {
  if (!input.aclEnabled) return { verdict: 'allow', by: 'default', ruleIds: [] };
  const names = (side: CompileRule['allowed']) => side.any || side.devices.some((d) => source.has(d));
  const matching = input.rules.filter(
    (r) =>
      r.enabled &&
      (r.expires === null || r.expires > input.now) &&
      selectors(r, input.aliases).some((s) => selectorMatches(s, destination, port, protocol)),
  );
  const naming = matching.filter((r) => names(r.allowed) || names(r.denied));
  if (naming.length > 0) {
    const top = Math.min(...naming.map((r) => r.priority));
    const level = naming.filter((r) => r.priority === top);
    const deniers = level.filter((r) => names(r.denied));
    if (deniers.length > 0) return { verdict: 'deny', by: 'named', ruleIds: deniers.map((r) => r.id) };
    return { verdict: 'allow', by: 'named', ruleIds: level.map((r) => r.id) };
  }
  if (matching.length > 0) return { verdict: 'deny', by: 'claim', ruleIds: matching.map((r) => r.id) };
  return { verdict: input.defaultAllow ? 'allow' : 'deny', by: 'default', ruleIds: [] };
}
