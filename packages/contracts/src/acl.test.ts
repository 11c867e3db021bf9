import { describe, expect, it } from 'vitest';
import { AclAliasBodySchema, AclRuleBodySchema, isAclDestination, isAclPort } from './acl.js';
import { FIELD_CODES } from './errors.js';

const issues = (schema: typeof AclRuleBodySchema | typeof AclAliasBodySchema, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};
const rule = { name: 'web', all_locations: true, allowed_groups: ['dev'] };

describe('ACL destinations and ports', () => {
  it('accepts CIDRs, single addresses and same-family ranges, low to high', () => {
    for (const ok of ['10.0.0.0/8', '10.1.0.5', 'fd00::/64', '::1', '10.1.0.5-10.1.0.9', 'fd00::1-fd00::9'])
      expect(isAclDestination(ok), ok).toBe(true);
    for (const bad of ['10.0.0.0/33', '10.1.0.9-10.1.0.5', '10.0.0.1-fd00::1', 'host.example', '', '10.0.0.1-'])
      expect(isAclDestination(bad), bad).toBe(false);
  });
  it('accepts ports 1–65535 and ranges low ≤ high', () => {
    for (const ok of ['1', '443', '65535', '8000-8100', '80 - 80']) expect(isAclPort(ok), ok).toBe(true);
    for (const bad of ['0', '65536', '100-90', 'http', '1-2-3', '']) expect(isAclPort(bad), bad).toBe(false);
  });
});

describe('AclRuleBodySchema', () => {
  it('takes defaults and normalizes ranges', () => {
    const r = AclRuleBodySchema.parse({ ...rule, destinations: ['10.0.0.1 - 10.0.0.9'], ports: ['80 - 90'] });
    expect(r).toMatchObject({ priority: 100, enabled: true, expires: null, destinations: ['10.0.0.1-10.0.0.9'], ports: ['80-90'] });
  });
  it('reports allowDenyConflict for the same member or the same "all" on both sides', () => {
    expect(issues(AclRuleBodySchema, { ...rule, denied_groups: ['DEV'] })).toEqual(['denied_groups:acl.allow_deny_conflict']);
    expect(issues(AclRuleBodySchema, { ...rule, allow_all_users: true, deny_all_users: true })).toEqual([
      'deny_all_users:acl.allow_deny_conflict',
    ]);
    expect(issues(AclRuleBodySchema, { ...rule, allowed_network_devices: [3], denied_network_devices: [3] })).toEqual([
      'denied_network_devices:acl.allow_deny_conflict',
    ]);
  });
  it('reports allowNotConfigured, missing locations and ports with ICMP only', () => {
    expect(issues(AclRuleBodySchema, { name: 'x', denied_users: ['bob'] })).toEqual([
      'allowed_users:acl.allow_not_configured',
      'locations:required',
    ]);
    expect(issues(AclRuleBodySchema, { ...rule, ports: ['22'], protocols: ['icmp'] })).toEqual(['ports:acl.ports_need_tcp_udp']);
    expect(issues(AclRuleBodySchema, { ...rule, ports: ['22'], protocols: ['icmp', 'tcp'] })).toEqual([]);
  });
  it('rejects bad fields with field codes only', () => {
    const found = issues(AclRuleBodySchema, {
      ...rule,
      priority: 70000,
      ports: ['0'],
      protocols: ['gre'],
      destinations: ['x'],
      expires: 'tomorrow',
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'priority:max_value',
        'ports.0:acl.port',
        'protocols.0:acl.protocol',
        'destinations.0:acl.destination',
        'expires:invalid',
      ]),
    );
    for (const i of found) expect(FIELD_CODES as readonly string[]).toContain(i.split(':')[1]);
  });
});

describe('AclAliasBodySchema', () => {
  it('needs something to select and ports with TCP or UDP', () => {
    expect(issues(AclAliasBodySchema, { name: 'a', kind: 'component' })).toEqual(['destinations:acl.alias_empty']);
    expect(issues(AclAliasBodySchema, { name: 'a', kind: 'destination', ports: ['1'], protocols: ['icmp'] })).toEqual([
      'ports:acl.ports_need_tcp_udp',
    ]);
    expect(issues(AclAliasBodySchema, { name: 'a', kind: 'other', ports: ['1'] })).toEqual(['kind:invalid']);
  });
});
