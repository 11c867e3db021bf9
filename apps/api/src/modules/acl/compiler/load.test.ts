import { describe, expect, it } from 'vitest';
import { type DeviceIndex, type LinkRow, type RuleRow, resolveRules } from './load.repo.js';

const row = (id: number, over: Partial<RuleRow> = {}): RuleRow => ({
  id,
  priority: 100,
  enabled: true,
  expires: null,
  allow_all_users: false,
  deny_all_users: false,
  allow_all_network_devices: false,
  deny_all_network_devices: false,
  destinations: '10.0.0.0/8,fd00::/64',
  ports: '',
  protocols: 'tcp',
  ...over,
});

// Users 1 (devices 1, 4), 2 (devices 2, 5), 3 (device 7); network devices 3 and 9 of the location.
const devices: DeviceIndex = {
  byUser: new Map([
    [1, [1, 4]],
    [2, [2, 5]],
    [3, [7]],
  ]),
  allUser: [1, 2, 4, 5, 7],
  network: [3, 9],
};
const groups = new Map([
  [10, [1, 2]],
  [11, [2, 3]],
]);

describe('resolveRules', () => {
  it('resolves users, groups, network devices and "all" flags to sorted, unique device ids', () => {
    const links: LinkRow[] = [
      { rule_id: 1, kind: 'g', ref: 10, allow: true },
      { rule_id: 1, kind: 'g', ref: 11, allow: true },
      { rule_id: 1, kind: 'u', ref: 1, allow: true },
      { rule_id: 1, kind: 'd', ref: 3, allow: true },
      { rule_id: 1, kind: 'u', ref: 3, allow: false },
      { rule_id: 1, kind: 'a', ref: 5, allow: true },
      { rule_id: 2, kind: 'd', ref: 9, allow: false },
    ];
    const [one, two, three] = resolveRules(
      [
        row(1),
        row(2, { allow_all_users: true, ports: '22,8000-8100' }),
        row(3, { allow_all_users: true, allow_all_network_devices: true }),
      ],
      links,
      groups,
      devices,
    );
    expect(one).toMatchObject({
      allowed: { any: false, devices: [1, 2, 3, 4, 5, 7] },
      denied: { any: false, devices: [7] },
      aliasIds: [5],
      destinations: ['10.0.0.0/8', 'fd00::/64'],
      ports: [],
      protocols: ['tcp'],
    });
    expect(two).toMatchObject({ allowed: { any: false, devices: [1, 2, 4, 5, 7] }, denied: { devices: [9] }, ports: ['22', '8000-8100'] });
    expect(three?.allowed).toEqual({ any: true, devices: [] });
  });

  it('shares the device list of a group between the rules naming it', () => {
    const links: LinkRow[] = [
      { rule_id: 1, kind: 'g', ref: 10, allow: true },
      { rule_id: 2, kind: 'g', ref: 10, allow: true },
    ];
    const [a, b] = resolveRules([row(1), row(2)], links, groups, devices);
    expect(a?.allowed.devices).toEqual([1, 2, 4, 5]);
    expect(a?.allowed.devices).toBe(b?.allowed.devices);
  });
});
