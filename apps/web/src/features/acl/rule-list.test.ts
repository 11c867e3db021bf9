import type { AclRule } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { filterRules, memberOptions, NO_RULE_FILTERS, pendingParents, splitRules } from './rule-list';

const rule = (over: Partial<AclRule>): AclRule => ({
  id: 1,
  name: 'r',
  priority: 100,
  status: 'applied',
  state: 'applied',
  enabled: true,
  all_locations: true,
  locations: [],
  allow_all_users: false,
  allowed_users: [],
  allowed_groups: [],
  allow_all_network_devices: false,
  allowed_network_devices: [],
  deny_all_users: false,
  denied_users: [],
  denied_groups: [],
  deny_all_network_devices: false,
  denied_network_devices: [],
  destinations: [],
  ports: [],
  protocols: [],
  aliases: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

const RULES = [
  rule({ id: 1, name: 'Web', priority: 20, allowed_groups: ['dev'], destinations: ['10.1.0.0/24'], ports: ['8080'] }),
  rule({ id: 2, name: 'Db', priority: 10, status: 'expired', all_locations: false, locations: [3], allowed_users: ['Ada'] }),
  rule({ id: 3, name: 'New one', status: 'new', state: 'new', denied_users: ['bob'], all_locations: false, locations: [4] }),
  rule({ id: 4, parent_id: 1, name: 'Web', priority: 20, status: 'disabled', state: 'modified', enabled: false }),
  rule({ id: 5, parent_id: 2, name: 'Db', status: 'deleted', state: 'deleted' }),
];
const names = (rules: AclRule[]) => rules.map((r) => `${r.id}`);

describe('splitRules', () => {
  it('puts applied rows in the deployed list and new rows and pending changes in the pending one, by priority', () => {
    const { deployed, pending } = splitRules(RULES);
    expect(names(deployed)).toEqual(['2', '1']);
    expect(names(pending)).toEqual(['4', '5', '3']);
    expect(pending.map((r) => r.status).sort()).toEqual(['deleted', 'disabled', 'new']);
    expect([...pendingParents(RULES)].sort()).toEqual([1, 2]);
  });
});

describe('filterRules', () => {
  it('filters by status', () => {
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, status: 'expired' }))).toEqual(['2']);
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, status: 'disabled' }))).toEqual(['4']);
  });

  it('filters by location: rules for all locations match every location', () => {
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, location: '3' }))).toEqual(['1', '2', '4', '5']);
  });

  it('filters by a user or group the rule names on either side, ignoring case', () => {
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, member: 'user:ada' }))).toEqual(['2']);
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, member: 'user:bob' }))).toEqual(['3']);
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, member: 'group:dev' }))).toEqual(['1']);
    expect(memberOptions(RULES)).toEqual({ users: ['Ada', 'bob'], groups: ['dev'] });
  });

  it('searches names, destinations and ports', () => {
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, search: ' WEB ' }))).toEqual(['1', '4']);
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, search: '10.1.0' }))).toEqual(['1']);
    expect(names(filterRules(RULES, { ...NO_RULE_FILTERS, search: '8080', status: 'new' }))).toEqual([]);
  });
});
