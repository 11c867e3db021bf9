import type { AclAlias, AclRule, Network } from '@palisade/contracts';
import type { Translate } from '@/i18n/translate';

/** One line per side of a rule for the lists: "All users", names, groups, "2 network devices". */
export function membersSummary(t: Translate, rule: AclRule, side: 'allow' | 'deny'): string {
  const allow = side === 'allow';
  const parts: string[] = [];
  if (allow ? rule.allow_all_users : rule.deny_all_users) parts.push(t('acl.summary.allUsers'));
  parts.push(...(allow ? rule.allowed_users : rule.denied_users));
  for (const name of allow ? rule.allowed_groups : rule.denied_groups) parts.push(t('acl.summary.group', { name }));
  if (allow ? rule.allow_all_network_devices : rule.deny_all_network_devices) parts.push(t('acl.summary.allNetworkDevices'));
  const devices = (allow ? rule.allowed_network_devices : rule.denied_network_devices).length;
  if (devices > 0) parts.push(t('acl.summary.networkDevices', { count: devices }));
  return parts.length ? parts.join(', ') : '—';
}

export function locationsSummary(t: Translate, rule: AclRule, locations: readonly Network[]): string {
  if (rule.all_locations) return t('acl.summary.allLocations');
  const names = new Map(locations.map((l) => [l.id, l.name]));
  return rule.locations.map((id) => names.get(id) ?? `#${id}`).join(', ') || '—';
}

/** Destinations, aliases (by name), ports and protocols; "Any destination" when the rule names none. */
export function trafficSummary(t: Translate, rule: AclRule, aliases: readonly AclAlias[]): string {
  const names = new Map(aliases.map((a) => [a.id, a.name]));
  const parts = [...rule.destinations, ...rule.aliases.map((id) => t('acl.summary.alias', { name: names.get(id) ?? `#${id}` }))];
  if (parts.length === 0) parts.push(t('acl.summary.anyDestination'));
  const ports = rule.ports.length ? rule.ports.join(', ') : undefined;
  const protocols = rule.protocols.length ? rule.protocols.map((p) => p.toUpperCase()).join('/') : undefined;
  return [parts.join(', '), ports && t('acl.summary.ports', { ports }), protocols].filter(Boolean).join(' · ');
}
