import type { AclRule, AclRuleStatus } from '@palisade/contracts';
import type { RuleContent, RuleMember, RuleRecord } from './acl-rules.repo.js';

/** The content of a rule as comparable text, without `enabled`. */
const withoutEnabled = (c: RuleContent): string => JSON.stringify({ ...c, enabled: undefined, expires: c.expires?.getTime() ?? null });

/**
 * The status shown (spec §4, docs/acl.md): a pending change that only switches `enabled` shows
 * `enabled` or `disabled`; a deployed rule whose `expires` has passed shows `expired`.
 */
export function statusOf(rule: RuleRecord, parent: RuleRecord | undefined, now: Date): AclRuleStatus {
  switch (rule.state) {
    case 'applied':
      return rule.content.expires && rule.content.expires.getTime() <= now.getTime() ? 'expired' : 'applied';
    case 'modified':
      if (parent && parent.content.enabled !== rule.content.enabled && withoutEnabled(parent.content) === withoutEnabled(rule.content)) {
        return rule.content.enabled ? 'enabled' : 'disabled';
      }
      return 'modified';
    default:
      return rule.state;
  }
}

const names = (members: RuleMember[], allow: boolean) => members.filter((m) => m.allow === allow).map((m) => m.name);
const ids = (members: RuleMember[], allow: boolean) => members.filter((m) => m.allow === allow).map((m) => m.id);

export function toAclRule(rule: RuleRecord, parent: RuleRecord | undefined, now: Date): AclRule {
  const c = rule.content;
  return {
    id: rule.id,
    ...(rule.parentId !== null ? { parent_id: rule.parentId } : {}),
    name: c.name,
    priority: c.priority,
    status: statusOf(rule, parent, now),
    state: rule.state,
    enabled: c.enabled,
    ...(c.expires ? { expires: c.expires.toISOString() } : {}),
    all_locations: c.allLocations,
    locations: c.locations,
    allow_all_users: c.allowAllUsers,
    allowed_users: names(c.users, true),
    allowed_groups: names(c.groups, true),
    allow_all_network_devices: c.allowAllNetworkDevices,
    allowed_network_devices: ids(c.devices, true),
    deny_all_users: c.denyAllUsers,
    denied_users: names(c.users, false),
    denied_groups: names(c.groups, false),
    deny_all_network_devices: c.denyAllNetworkDevices,
    denied_network_devices: ids(c.devices, false),
    destinations: c.destinations,
    ports: c.ports,
    protocols: c.protocols,
    aliases: c.aliases,
    created_at: rule.createdAt.toISOString(),
    updated_at: rule.updatedAt.toISOString(),
  };
}

/** The API view of rules, each pending child compared with its parent (for its status). */
export function toAclRules(records: RuleRecord[], parents: RuleRecord[], now = new Date()): AclRule[] {
  const byId = new Map([...parents, ...records].map((r) => [r.id, r]));
  return records.map((r) => toAclRule(r, r.parentId !== null ? byId.get(r.parentId) : undefined, now));
}
