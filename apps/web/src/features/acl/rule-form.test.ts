import { type AclRule, AclRuleBodySchema } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { issuesFromZod } from '@/lib/field-errors';
import { EMPTY_RULE, fromLocalInput, ruleBody, ruleFormValues, ruleToBody, type RuleFormValues, toLocalInput } from './rule-form';

const issues = (values: RuleFormValues) => {
  const result = AclRuleBodySchema.safeParse(ruleBody(values));
  return result.success ? {} : issuesFromZod(result.error);
};
const valid: RuleFormValues = {
  ...EMPTY_RULE,
  name: 'Dev to web',
  allowed_groups: ['dev'],
  destinations: ['10.1.0.0/24'],
  ports: ['8080'],
};

const RULE: AclRule = {
  id: 7,
  name: 'Web',
  priority: 10,
  status: 'applied',
  state: 'applied',
  enabled: true,
  expires: '2030-01-02T03:04:00.000Z',
  all_locations: false,
  locations: [2],
  allow_all_users: false,
  allowed_users: ['ada'],
  allowed_groups: ['dev'],
  allow_all_network_devices: false,
  allowed_network_devices: [5],
  deny_all_users: false,
  denied_users: ['bob'],
  denied_groups: [],
  deny_all_network_devices: false,
  denied_network_devices: [],
  destinations: ['10.1.0.5-10.1.0.9'],
  ports: ['443'],
  protocols: ['tcp'],
  aliases: [3],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('rule form validation (the API schema, spec §5)', () => {
  it('accepts a complete rule', () => {
    expect(issues(valid)).toEqual({});
  });

  it('asks for some allowed member (allowNotConfigured)', () => {
    expect(issues({ ...valid, allowed_groups: [] }).allowed_users?.code).toBe('acl.allow_not_configured');
    expect(issues({ ...valid, allowed_groups: [], allow_all_network_devices: true })).toEqual({});
  });

  it('refuses the same member on both sides (allowDenyConflict)', () => {
    const ada = { id: 'ada', label: 'Ada Lovelace (ada)' };
    expect(issues({ ...valid, allowed_users: [ada], denied_users: [ada] }).denied_users?.code).toBe('acl.allow_deny_conflict');
    expect(issues({ ...valid, denied_groups: ['dev'] }).denied_groups?.code).toBe('acl.allow_deny_conflict');
    expect(issues({ ...valid, allow_all_users: true, deny_all_users: true }).deny_all_users?.code).toBe('acl.allow_deny_conflict');
  });

  it('checks destinations, ports, priority, locations and ports without TCP/UDP, item by item', () => {
    const found = issues({ ...valid, destinations: ['10.1.0.0/24', '10.9.0.9-10.9.0.1'], ports: ['443', '70000'], priority: 'high' });
    expect(found['destinations.1']?.code).toBe('acl.destination');
    expect(found['ports.1']?.code).toBe('acl.port');
    expect(found.priority?.code).toBe('number');
    expect(issues({ ...valid, all_locations: false }).locations?.code).toBe('required');
    expect(issues({ ...valid, protocols: ['icmp'] }).ports?.code).toBe('acl.ports_need_tcp_udp');
  });

  it('sends no members of a side that names "all", and the chosen locations only without "all locations"', () => {
    const body = ruleBody({ ...valid, allow_all_users: true, allowed_users: [{ id: 'ada', label: 'ada' }], locations: [4] });
    expect(body.allowed_users).toEqual([]);
    expect(body.allowed_groups).toEqual([]);
    expect(body.locations).toEqual([]);
    expect(ruleBody({ ...valid, all_locations: false, locations: [4] }).locations).toEqual([4]);
  });
});

describe('rule ↔ form', () => {
  it('round-trips a rule through the form, naming devices by the given label', () => {
    const values = ruleFormValues(RULE, (id) => `dev-${id}`);
    expect(values.allowed_network_devices).toEqual([{ id: '5', label: 'dev-5' }]);
    expect(values.allowed_users).toEqual([{ id: 'ada', label: 'ada' }]);
    expect(ruleBody(values)).toEqual(ruleToBody(RULE));
  });

  it('keeps expiry as an instant, shown in local time; empty means never', () => {
    expect(fromLocalInput(toLocalInput('2030-01-02T03:04:00.000Z'))).toBe('2030-01-02T03:04:00.000Z');
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(undefined)).toBe('');
    expect(fromLocalInput('soon')).toBe('soon');
    expect(issues({ ...valid, expires: 'soon' }).expires?.code).toBe('invalid');
  });
});
