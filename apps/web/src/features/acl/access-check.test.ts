import { AclCheckQuerySchema, type AclCheckResult } from '@palisade/contracts';
import { describe, expect, it } from 'vitest';
import { issuesFromZod } from '@/lib/field-errors';
import { type AccessCheckValues, accessCheckQuery, decisionKey, EMPTY_ACCESS_CHECK } from './access-check';

const values: AccessCheckValues = {
  ...EMPTY_ACCESS_CHECK,
  location: '3',
  source: [{ id: '12', label: 'Ada (ada)' }],
  destination: ' 10.1.0.5 ',
  port: '8080',
};
const issues = (v: AccessCheckValues) => {
  const result = AclCheckQuerySchema.safeParse(accessCheckQuery(v));
  return result.success ? {} : issuesFromZod(result.error);
};

describe('access check query', () => {
  it('names the source by kind and id, and drops the port for ICMP', () => {
    expect(accessCheckQuery(values)).toEqual({ location: '3', source: 'user:12', destination: '10.1.0.5', port: '8080', protocol: 'tcp' });
    expect(accessCheckQuery({ ...values, kind: 'network_device', protocol: 'icmp' })).toEqual({
      location: '3',
      source: 'network_device:12',
      destination: '10.1.0.5',
      protocol: 'icmp',
    });
    expect(issues(values)).toEqual({});
  });

  it('is checked as the API checks it: location, source, address, and a port for TCP and UDP', () => {
    const found = issues({ ...EMPTY_ACCESS_CHECK, destination: '10.1.0', port: '' });
    expect(found.location?.code).toBe('required');
    expect(found.source?.code).toBe('required');
    expect(found.destination?.code).toBe('invalid');
    expect(issues({ ...values, destination: ' ' }).destination?.code).toBe('required');
    expect(issues({ ...values, port: '' }).port?.code).toBe('required');
    expect(issues({ ...values, port: '70000' }).port?.code).toBe('max_value');
  });
});

describe('decisionKey', () => {
  const result = (over: Partial<AclCheckResult>): AclCheckResult => ({
    verdict: 'allow',
    decided_by: { kind: 'rule', rule_id: 1, rule_name: 'Web', firewall_rule_id: 'r1_allow' },
    mode: 'deny_by_default',
    source_devices: [4],
    ...over,
  });
  it('says which rule, which default, or that the location has no ACL', () => {
    expect(decisionKey(result({}))).toBe('acl.check.allowedBy');
    expect(
      decisionKey(result({ verdict: 'deny', decided_by: { kind: 'rule', rule_id: 1, rule_name: 'Web', firewall_rule_id: 'r1_deny' } })),
    ).toBe('acl.check.deniedBy');
    expect(
      decisionKey(
        result({
          verdict: 'deny',
          mode: 'allow_by_default',
          decided_by: { kind: 'rule', rule_id: 1, rule_name: 'Web', firewall_rule_id: 'r1_a2_claim' },
        }),
      ),
    ).toBe('acl.check.byClaim');
    expect(decisionKey(result({ verdict: 'deny', decided_by: { kind: 'default' } }))).toBe('acl.check.default.deny_by_default');
    expect(decisionKey(result({ mode: 'allow_by_default', decided_by: { kind: 'default' } }))).toBe('acl.check.default.allow_by_default');
    expect(decisionKey(result({ mode: 'unmanaged', decided_by: { kind: 'default' } }))).toBe('acl.check.unmanaged');
  });
});
