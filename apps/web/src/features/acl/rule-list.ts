import type { AclRule, AclRuleStatus } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';

/**
 * Spec §4: a rule row is deployed (`applied`, shown `applied` or `expired`) or pending (`new`, or a
 * pending change of a deployed rule: `modified`, `deleted`, `enabled`, `disabled`). Pending rows
 * are what Deploy and Discard act on.
 */
export const isPendingRule = (rule: Pick<AclRule, 'state'>): boolean => rule.state !== 'applied';

export const RULE_STATUS_FILTERS = ['all', 'new', 'applied', 'modified', 'deleted', 'enabled', 'disabled', 'expired'] as const;
export type RuleStatusFilter = (typeof RULE_STATUS_FILTERS)[number];

export interface RuleFilters {
  status: RuleStatusFilter;
  /** A location id, or '' for any. A rule for all locations matches every location. */
  location: string;
  /** `user:<username>` or `group:<name>`, or '' for anyone: rules that name that user or group. */
  member: string;
  search: string;
}

export const NO_RULE_FILTERS: RuleFilters = { status: 'all', location: '', member: '', search: '' };

const lower = (values: readonly string[]) => values.map((v) => v.toLowerCase());

function namesMember(rule: AclRule, member: string): boolean {
  const [kind, ...rest] = member.split(':');
  const name = rest.join(':').toLowerCase();
  if (kind === 'user') return lower([...rule.allowed_users, ...rule.denied_users]).includes(name);
  if (kind === 'group') return lower([...rule.allowed_groups, ...rule.denied_groups]).includes(name);
  return true;
}

/** Search: the rule's name, a destination or a port, ignoring case and surrounding spaces. */
function matchesSearch(rule: AclRule, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return [rule.name, ...rule.destinations, ...rule.ports].some((text) => text.toLowerCase().includes(needle));
}

export function filterRules(rules: readonly AclRule[], filters: RuleFilters): AclRule[] {
  return rules.filter(
    (rule) =>
      (filters.status === 'all' || rule.status === filters.status) &&
      (filters.location === '' || rule.all_locations || rule.locations.includes(Number(filters.location))) &&
      (filters.member === '' || namesMember(rule, filters.member)) &&
      matchesSearch(rule, filters.search),
  );
}

const byPriorityThenName = (a: AclRule, b: AclRule) => a.priority - b.priority || a.name.localeCompare(b.name) || a.id - b.id;

/** The two lists of the Rules tab, each in the order rules apply (priority, then name). */
export function splitRules(rules: readonly AclRule[]): { deployed: AclRule[]; pending: AclRule[] } {
  const sorted = [...rules].sort(byPriorityThenName);
  return { deployed: sorted.filter((r) => !isPendingRule(r)), pending: sorted.filter(isPendingRule) };
}

/** Deployed rules that have a pending change (shown with a marker in the deployed list). */
export const pendingParents = (rules: readonly AclRule[]): ReadonlySet<number> =>
  new Set(rules.flatMap((r) => (r.parent_id !== undefined && isPendingRule(r) ? [r.parent_id] : [])));

/** The users and groups rules name, for the member filter (`user:<name>`, `group:<name>`), sorted. */
export function memberOptions(rules: readonly AclRule[]): { users: string[]; groups: string[] } {
  const users = new Set<string>();
  const groups = new Set<string>();
  for (const r of rules) {
    for (const u of [...r.allowed_users, ...r.denied_users]) users.add(u);
    for (const g of [...r.allowed_groups, ...r.denied_groups]) groups.add(g);
  }
  const sort = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
  return { users: sort(users), groups: sort(groups) };
}

export const RULE_STATUS_TONES: Record<AclRuleStatus, 'neutral' | 'success' | 'error' | 'primary' | 'warning'> = {
  new: 'primary',
  applied: 'success',
  modified: 'warning',
  deleted: 'error',
  enabled: 'primary',
  disabled: 'warning',
  expired: 'neutral',
};

export const ruleStatusLabel = (status: AclRuleStatus): MessageKey => `acl.status.${status}` as MessageKey;
