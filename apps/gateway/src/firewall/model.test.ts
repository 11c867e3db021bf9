import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { DeltaSchema, FirewallProtocol, FirewallRuleSchema, FirewallSchema, FirewallVerdict } from '@palisade/proto';
import { describe, expect, it } from 'vitest';
import { StateError } from '#src/reconcile/normalize.js';
import { firewallAfterDelta } from './from-delta.js';
import { compareRules, firewallFromProto, orderedRules, ruleFromProto, UNMANAGED } from './model.js';

const fw = (fields: object) => create(FirewallSchema, fields as never);
const rule = (fields: MessageInitShape<typeof FirewallRuleSchema>) =>
  create(FirewallRuleSchema, { id: 'r1_allow', priority: 100, verdict: FirewallVerdict.ACCEPT, ...fields });

describe('firewall model', () => {
  it('merges overlapping and adjacent destinations per family into the shortest interval texts', () => {
    const r = ruleFromProto(
      rule({
        destinations: [
          '10.1.2.0/24',
          '10.1.0.0/16',
          '10.2.0.5',
          '10.2.0.6-10.2.0.9',
          '10.3.0.0-10.3.0.255',
          'fd00:1::/64',
          'FD00:1::5',
          '192.168.0.7/24',
        ],
      }),
    );
    expect(r.dest4).toEqual(['10.1.0.0/16', '10.2.0.5-10.2.0.9', '10.3.0.0/24', '192.168.0.0/24']);
    expect(r.dest6).toEqual(['fd00:1::/64']);
    expect(r.anyDestination).toBe(false);
  });

  it('merges port ranges and sorts members and protocols', () => {
    const r = ruleFromProto(
      rule({
        members: ['d2', 'd1', 'd2'],
        ports: [
          { first: 443, last: 443 },
          { first: 8000, last: 8100 },
          { first: 8050, last: 8200 },
          { first: 444, last: 444 },
        ],
        protocols: [FirewallProtocol.UDP, FirewallProtocol.TCP],
      }),
    );
    expect(r.ports).toEqual(['443-444', '8000-8200']);
    expect(r.members).toEqual(['d1', 'd2']);
    // Canonical member order: numeric for d<id> (shorter first), as the control plane sends them.
    expect(ruleFromProto(rule({ members: ['d10', 'd9', 'd10', 'x'] })).members).toEqual(['x', 'd9', 'd10']);
    const sent = rule({ members: ['d2', 'd9', 'd10', 'd11'] });
    expect(ruleFromProto(sent).members).toBe(sent.members);
    expect(r.protocols).toEqual(['tcp', 'udp']);
  });

  it.each([
    [{ id: 'R1' }, /id/],
    [{ id: 'x'.repeat(49) }, /id/],
    [{ verdict: FirewallVerdict.UNSPECIFIED }, /verdict/],
    [{ destinations: ['10.0.0.300'] }, /not an IP/],
    [{ destinations: ['10.0.0.9-10.0.0.1'] }, /range/],
    [{ destinations: ['10.0.0.1-fd00::1'] }, /range/],
    [{ ports: [{ first: 0, last: 1 }] }, /port/],
    [{ ports: [{ first: 10, last: 9 }] }, /port/],
    [{ ports: [{ first: 1, last: 70_000 }] }, /port/],
    [{ protocols: [FirewallProtocol.UNSPECIFIED] }, /protocol/],
  ])('rejects %j as a StateError', (fields, message) => {
    expect(() => ruleFromProto(rule(fields as never))).toThrow(StateError);
    expect(() => ruleFromProto(rule(fields as never))).toThrow(message);
  });

  it('rejects bad member addresses and duplicate ids; an absent or unmanaged firewall is unmanaged', () => {
    expect(() => firewallFromProto(fw({ managed: true, members: [{ key: 'd1', addresses: ['10.8.0.2/32'] }] }))).toThrow(StateError);
    expect(() => firewallFromProto(fw({ managed: true, rules: [rule({}), rule({})], members: [] }))).toThrow(/twice/);
    expect(firewallFromProto(undefined)).toBe(UNMANAGED);
    expect(firewallFromProto(fw({ managed: false, defaultAllow: false, rules: [rule({})], members: [] }))).toBe(UNMANAGED);
  });

  it('orders rules by priority, then DROP before ACCEPT, then id', () => {
    const state = firewallFromProto(
      fw({
        managed: true,
        defaultAllow: false,
        rules: [
          rule({ id: 'r2_allow', priority: 5 }),
          rule({ id: 'r1_allow', priority: 5 }),
          rule({ id: 'r1_deny', priority: 5, verdict: FirewallVerdict.DROP }),
          rule({ id: 'r0_allow', priority: 7 }),
          rule({ id: 'r9_allow', priority: -1 }),
        ],
        members: [],
      }),
    );
    expect(orderedRules(state).map((r) => r.id)).toEqual(['r9_allow', 'r1_deny', 'r1_allow', 'r2_allow', 'r0_allow']);
    expect(compareRules(state.rules.get('r1_allow')!, state.rules.get('r1_allow')!)).toBe(0);
  });

  it('applies delta ops in order and keeps unchanged rules and members as the same objects', () => {
    const base = firewallFromProto(
      fw({
        managed: true,
        defaultAllow: false,
        rules: [rule({ id: 'r1_allow', members: ['d1'] }), rule({ id: 'r2_allow', anySource: true })],
        members: [
          { key: 'd1', addresses: ['10.8.0.2'] },
          { key: 'd2', addresses: ['10.8.0.3'] },
        ],
      }),
    );
    const delta = create(DeltaSchema, {
      revision: 2n,
      ops: [
        { op: { case: 'firewallRuleUpsert', value: { rule: rule({ id: 'r3_allow', members: ['d2'] }) } } },
        { op: { case: 'firewallRuleRemove', value: { id: 'r2_allow' } } },
        { op: { case: 'firewallMemberUpsert', value: { member: { key: 'd2', addresses: ['10.8.0.4'] } } } },
        { op: { case: 'peerRemove', value: { publicKey: 'x' } } },
      ],
    });
    const next = firewallAfterDelta(base, delta);
    expect([...next.rules.keys()].sort()).toEqual(['r1_allow', 'r3_allow']);
    expect(next.rules.get('r1_allow')).toBe(base.rules.get('r1_allow'));
    expect(next.members.get('d1')).toBe(base.members.get('d1'));
    expect(next.members.get('d2')).toEqual({ v4: ['10.8.0.4'], v6: [] });
    expect(base.rules.has('r2_allow')).toBe(true);
    const unchanged = firewallAfterDelta(base, create(DeltaSchema, { revision: 3n, ops: [] }));
    expect(unchanged).toBe(base);
    const replaced = firewallAfterDelta(
      base,
      create(DeltaSchema, { revision: 4n, ops: [{ op: { case: 'firewallReplace', value: { firewall: { managed: false } } } }] }),
    );
    expect(replaced).toBe(UNMANAGED);
  });

  it('resolves member lists: rules naming one list share its keys; unknown or mixed sources are refused', () => {
    const state = firewallFromProto(
      fw({
        managed: true,
        memberLists: [{ id: 'la', members: ['d2', 'd10', 'd2'] }],
        rules: [rule({ id: 'r1_allow', memberList: 'la' }), rule({ id: 'r2_deny', verdict: FirewallVerdict.DROP, memberList: 'la' })],
        members: [],
      }),
    );
    expect(state.rules.get('r1_allow')?.members).toEqual(['d2', 'd10']);
    expect(state.rules.get('r2_deny')?.members).toBe(state.rules.get('r1_allow')?.members);
    expect(() => firewallFromProto(fw({ managed: true, rules: [rule({ memberList: 'lx' })] }))).toThrow(/unknown member list/);
    const mixed = fw({ managed: true, memberLists: [{ id: 'la', members: ['d1'] }], rules: [rule({ memberList: 'la', members: ['d2'] })] });
    expect(() => firewallFromProto(mixed)).toThrow(StateError);
    expect(() => firewallFromProto(fw({ managed: true, memberLists: [{ id: 'L_1', members: [] }] }))).toThrow(/member list/);
  });

  it('takes the member list of a delta before the rules naming it, keeps a known one, and drops lists no rule names', () => {
    const base = firewallFromProto(
      fw({ managed: true, memberLists: [{ id: 'la', members: ['d1'] }], rules: [rule({ id: 'r1_allow', memberList: 'la' })] }),
    );
    const next = firewallAfterDelta(
      base,
      create(DeltaSchema, {
        revision: 2n,
        ops: [
          { op: { case: 'firewallMemberListUpsert', value: { list: { id: 'la', members: ['d1'] } } } },
          { op: { case: 'firewallMemberListUpsert', value: { list: { id: 'lb', members: ['d3', 'd2'] } } } },
          { op: { case: 'firewallRuleUpsert', value: { rule: rule({ id: 'r2_allow', memberList: 'lb' }) } } },
          { op: { case: 'firewallRuleUpsert', value: { rule: rule({ id: 'r3_allow', memberList: 'la' }) } } },
        ],
      }),
    );
    expect(next.lists.get('la')).toBe(base.lists.get('la'));
    expect(next.rules.get('r3_allow')?.members).toBe(base.rules.get('r1_allow')?.members);
    expect(next.rules.get('r2_allow')?.members).toEqual(['d2', 'd3']);
    const removed = firewallAfterDelta(
      next,
      create(DeltaSchema, { revision: 3n, ops: [{ op: { case: 'firewallRuleRemove', value: { id: 'r2_allow' } } }] }),
    );
    expect([...removed.lists.keys()]).toEqual(['la']);
    const unknown = create(DeltaSchema, {
      revision: 4n,
      ops: [{ op: { case: 'firewallRuleUpsert', value: { rule: rule({ id: 'r4_allow', memberList: 'lb' }) } } }],
    });
    expect(() => firewallAfterDelta(removed, unknown)).toThrow(/unknown member list/);
  });

  it('refuses rule and member ops on an unmanaged firewall', () => {
    const delta = create(DeltaSchema, { revision: 2n, ops: [{ op: { case: 'firewallMemberRemove', value: { key: 'd1' } } }] });
    expect(() => firewallAfterDelta(UNMANAGED, delta)).toThrow(/unmanaged/);
  });
});
