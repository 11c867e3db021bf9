import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { type FirewallRule, FirewallProtocol, FirewallRuleSchema, FirewallSchema, FirewallVerdict } from '@palisade/proto';
import { describe, expect, it } from 'vitest';
import { type FirewallState, firewallFromProto, ruleFromProto } from './model.js';
import { BUCKET, type Layout, listKey, renderChanges, renderTable, ruleLines, SHARDS } from './render.js';

const rule = (fields: MessageInitShape<typeof FirewallRuleSchema>) =>
  create(FirewallRuleSchema, { id: 'r1_allow', priority: 100, verdict: FirewallVerdict.ACCEPT, ...fields });
const firewall = (rules: FirewallRule[], members: { key: string; addresses: string[] }[] = [], defaultAllow = false) =>
  firewallFromProto(create(FirewallSchema, { managed: true, defaultAllow, rules, members }));
const lines = (text: string) => text.trim().split('\n');

const base = firewall(
  [
    rule({ id: 'r1_allow', members: ['d1', 'd2'], destinations: ['10.1.0.0/16', 'fd00:1::5'], ports: [{ first: 8080, last: 8080 }] }),
    rule({ id: 'r1_deny', verdict: FirewallVerdict.DROP, members: ['d3'], destinations: ['10.1.0.0/16'] }),
    rule({ id: 'r2_allow', priority: 200, anySource: true, protocols: [FirewallProtocol.ICMP] }),
  ],
  [
    { key: 'd1', addresses: ['10.8.0.2', 'fd00:8::2'] },
    { key: 'd2', addresses: ['10.8.0.3'] },
    { key: 'd3', addresses: ['10.8.0.4'] },
  ],
);

describe('ruleLines', () => {
  it('matches sources by member list, destinations and protocol/ports by rule number, per family, named by a comment', () => {
    expect(ruleLines(base.rules.get('r1_allow')!, 7, 3)).toEqual([
      'ip saddr . symhash mod 1 offset 3 @src4 ip daddr . symhash mod 1 offset 7 @dst4_7 meta l4proto . th dport . symhash mod 1 offset 7 @l4_7 accept comment "r1_allow"',
      'ip6 saddr . symhash mod 1 offset 3 @src6 ip6 daddr . symhash mod 1 offset 7 @dst6_7 meta l4proto . th dport . symhash mod 1 offset 7 @l4_7 accept comment "r1_allow"',
    ]);
    // Any source and any destination: one line for both families; shards by rule number.
    expect(ruleLines(base.rules.get('r2_allow')!, SHARDS + 3, null)).toEqual([
      'meta l4proto . th dport . symhash mod 1 offset 19 @l4_3 accept comment "r2_allow"',
    ]);
    // Named sources, any destination: both families; no protocol or port: no l4 match.
    expect(ruleLines(ruleFromProto(rule({ members: ['d1'], verdict: FirewallVerdict.DROP })), 1, 2)).toEqual([
      'ip saddr . symhash mod 1 offset 2 @src4 drop comment "r1_allow"',
      'ip6 saddr . symhash mod 1 offset 2 @src6 drop comment "r1_allow"',
    ]);
    expect(ruleLines(ruleFromProto(rule({ anySource: true })), 1, null)).toEqual(['accept comment "r1_allow"']);
  });
});

const setLine = (text: string, name: string) => text.split('\n').find((l) => l.startsWith(`  set ${name} {`));

describe('renderTable', () => {
  it('renders one table for the interface: shared sets, buckets holding the rule lines, acl and the forward hook', () => {
    const { text, layout } = renderTable('wg0', base);
    const l = lines(text);
    expect(l.slice(0, 3)).toEqual(['table inet palisade_wg0 {}', 'delete table inet palisade_wg0', '']);
    // Rule numbers: r1_deny 1, r1_allow 2, r2_allow 3; member lists: [d3] 1, [d1, d2] 2.
    expect(setLine(text, 'src4')).toBe(
      '  set src4 { typeof ip saddr . symhash mod 1; elements = { 10.8.0.4 . 1, 10.8.0.2 . 2, 10.8.0.3 . 2 }; }',
    );
    expect(setLine(text, 'src6')).toBe('  set src6 { typeof ip6 saddr . symhash mod 1; elements = { fd00:8::2 . 2 }; }');
    expect(setLine(text, 'dst4_1')).toBe(
      '  set dst4_1 { typeof ip daddr . symhash mod 1; flags interval; elements = { 10.1.0.0/16 . 1 }; }',
    );
    expect(setLine(text, 'dst4_2')).toBe(
      '  set dst4_2 { typeof ip daddr . symhash mod 1; flags interval; elements = { 10.1.0.0/16 . 2 }; }',
    );
    expect(setLine(text, 'dst6_2')).toBe(
      '  set dst6_2 { typeof ip6 daddr . symhash mod 1; flags interval; elements = { fd00:1::5-fd00:1::5 . 2 }; }',
    );
    expect(setLine(text, 'l4_2')).toBe(
      '  set l4_2 { typeof meta l4proto . th dport . symhash mod 1; flags interval; elements = { tcp . 8080-8080 . 2, udp . 8080-8080 . 2 }; }',
    );
    expect(setLine(text, 'l4_3')).toBe(
      '  set l4_3 { typeof meta l4proto . th dport . symhash mod 1; flags interval; elements = { icmp . 0-65535 . 3, ipv6-icmp . 0-65535 . 3 }; }',
    );
    expect(setLine(text, `l4_${SHARDS - 1}`)).toBe(
      `  set l4_${SHARDS - 1} { typeof meta l4proto . th dport . symhash mod 1; flags interval; }`,
    );
    const acl = text.slice(text.indexOf('  chain acl {'));
    expect(
      lines(acl)
        .slice(0, 5)
        .map((x) => x.trim()),
    ).toEqual(['chain acl {', 'ct state established,related accept', 'jump b_1', 'drop', '}']);
    expect(text).toContain(
      [
        '  chain b_1 {',
        '    ip saddr . symhash mod 1 offset 1 @src4 ip daddr . symhash mod 1 offset 1 @dst4_1 drop comment "r1_deny"',
        ...ruleLines(base.rules.get('r1_allow')!, 2, 2).map((x) => `    ${x}`),
        '    meta l4proto . th dport . symhash mod 1 offset 3 @l4_3 accept comment "r2_allow"',
        '  }',
      ].join('\n'),
    );
    expect(text).not.toContain('chain c_');
    expect(text).toContain('    type filter hook forward priority filter; policy accept;\n    iifname "wg0" jump acl');
    expect(layout).toEqual({
      numbers: new Map([
        ['r1_deny', 1],
        ['r1_allow', 2],
        ['r2_allow', 3],
      ]),
      nextNumber: 4,
      lists: new Map([
        ['d3', { n: 1, keys: ['d3'], refs: 1 }],
        ['d1\nd2', { n: 2, keys: ['d1', 'd2'], refs: 1 }],
      ]),
      nextList: 3,
      buckets: [{ n: 1, ids: ['r1_deny', 'r1_allow', 'r2_allow'] }],
      nextBucket: 2,
    });
    expect(renderTable('wg0', { ...base, defaultAllow: true }).text).toContain('    jump b_1\n    accept\n  }');
  });

  it('gives rules naming the same members (in any order) one member list and its elements once', () => {
    const shared = firewall(
      [
        rule({ id: 'r1_allow', members: ['d1', 'd2'], destinations: ['10.1.0.0/16'] }),
        rule({ id: 'r2_allow', priority: 200, members: ['d2', 'd1'], destinations: ['10.2.0.0/16'] }),
      ],
      [
        { key: 'd1', addresses: ['10.8.0.2'] },
        { key: 'd2', addresses: ['10.8.0.3'] },
      ],
    );
    const { text, layout } = renderTable('wg0', shared);
    expect(setLine(text, 'src4')).toBe('  set src4 { typeof ip saddr . symhash mod 1; elements = { 10.8.0.2 . 1, 10.8.0.3 . 1 }; }');
    expect(text).toContain('ip saddr . symhash mod 1 offset 1 @src4 ip daddr . symhash mod 1 offset 2 @dst4_2 accept comment "r2_allow"');
    expect(layout.lists).toEqual(new Map([['d1\nd2', { n: 1, keys: ['d1', 'd2'], refs: 2 }]]));
  });

  it(`splits rules into buckets of ${BUCKET}`, () => {
    const many = firewall(Array.from({ length: BUCKET * 2 + 1 }, (_, i) => rule({ id: `r${i}_allow`, priority: i, anySource: true })));
    const { layout, text } = renderTable('wg0', many);
    expect(layout.buckets.map((b) => b.ids.length)).toEqual([BUCKET, BUCKET, 1]);
    expect(text).toContain('    jump b_1\n    jump b_2\n    jump b_3\n    drop');
  });
});

describe('renderChanges', () => {
  const applied = renderTable('wg0', base).layout;
  const withRules = (state: FirewallState, ...rules: FirewallRule[]): FirewallState => {
    const next = new Map(state.rules);
    for (const r of rules) next.set(r.id, ruleFromProto(r));
    return { ...state, rules: next };
  };
  const b1 = (state: FirewallState, layout: Layout) =>
    layout.buckets[0]!.ids.flatMap((id) => {
      const r = state.rules.get(id)!;
      const key = listKey(r);
      return ruleLines(r, layout.numbers.get(id)!, key === null ? null : layout.lists.get(key)!.n).map(
        (x) => `add rule inet palisade_wg0 b_1 ${x}`,
      );
    });

  it('renders nothing for an unchanged state', () => {
    expect(renderChanges('wg0', base, base, applied).text).toBe('');
    expect(
      renderChanges(
        'wg0',
        base,
        firewallFromProto(create(FirewallSchema, { managed: true, defaultAllow: false, rules: [], members: [] })),
        applied,
      ).text,
    ).not.toBe('');
  });

  it("changes a member's addresses with set elements only, once per member list holding it", () => {
    const members = new Map(base.members);
    members.set('d1', { v4: ['10.8.0.9'], v6: ['fd00:8::2'] });
    members.set('d3', { v4: ['10.8.0.4', '10.8.0.5'], v6: [] });
    const { text, layout } = renderChanges('wg0', base, { ...base, members }, applied);
    expect(lines(text)).toEqual([
      'delete element inet palisade_wg0 src4 { 10.8.0.2 . 2 }',
      'add element inet palisade_wg0 src4 { 10.8.0.5 . 1, 10.8.0.9 . 2 }',
    ]);
    expect(layout).toEqual(applied);
  });

  it('adds a rule: its elements, a new member list, and a rewrite of the one bucket it falls into', () => {
    const after = withRules(base, rule({ id: 'r5_allow', priority: 150, members: ['d2'], protocols: [FirewallProtocol.TCP] }));
    const { text, layout } = renderChanges('wg0', base, after, applied);
    expect(lines(text)).toEqual([
      'flush chain inet palisade_wg0 b_1',
      ...b1(after, layout),
      'add element inet palisade_wg0 l4_4 { tcp . 0-65535 . 4 }',
      'add element inet palisade_wg0 src4 { 10.8.0.3 . 3 }',
    ]);
    expect(lines(text)).toContain(
      'add rule inet palisade_wg0 b_1 ip saddr . symhash mod 1 offset 3 @src4 meta l4proto . th dport . symhash mod 1 offset 4 @l4_4 accept comment "r5_allow"',
    );
    expect(layout.buckets).toEqual([{ n: 1, ids: ['r1_deny', 'r1_allow', 'r5_allow', 'r2_allow'] }]);
    expect(layout.nextNumber).toBe(5);
    expect(layout.nextList).toBe(4);
  });

  it('adds a rule naming a known member list: no source elements, the list counts one more rule', () => {
    const after = withRules(base, rule({ id: 'r5_allow', priority: 150, members: ['d2', 'd1'], protocols: [FirewallProtocol.TCP] }));
    const { text, layout } = renderChanges('wg0', base, after, applied);
    expect(lines(text).filter((x) => x.includes('element'))).toEqual(['add element inet palisade_wg0 l4_4 { tcp . 0-65535 . 4 }']);
    expect(lines(text)).toContain(
      'add rule inet palisade_wg0 b_1 ip saddr . symhash mod 1 offset 2 @src4 meta l4proto . th dport . symhash mod 1 offset 4 @l4_4 accept comment "r5_allow"',
    );
    expect(layout.lists.get('d1\nd2')).toEqual({ n: 2, keys: ['d1', 'd2'], refs: 2 });
  });

  it("changes a rule in place (same position): its bucket and its elements' difference; an unused list loses its elements", () => {
    const after = withRules(
      base,
      rule({ id: 'r1_allow', members: ['d1'], destinations: ['10.1.0.0/16'], ports: [{ first: 8080, last: 8081 }] }),
    );
    const { text, layout } = renderChanges('wg0', base, after, applied);
    expect(lines(text)).toEqual([
      'flush chain inet palisade_wg0 b_1',
      ...b1(after, layout),
      'delete element inet palisade_wg0 dst6_2 { fd00:1::5-fd00:1::5 . 2 }',
      'delete element inet palisade_wg0 l4_2 { tcp . 8080-8080 . 2, udp . 8080-8080 . 2 }',
      'delete element inet palisade_wg0 src4 { 10.8.0.2 . 2, 10.8.0.3 . 2 }',
      'delete element inet palisade_wg0 src6 { fd00:8::2 . 2 }',
      'add element inet palisade_wg0 l4_2 { tcp . 8080-8081 . 2, udp . 8080-8081 . 2 }',
      'add element inet palisade_wg0 src4 { 10.8.0.2 . 3 }',
      'add element inet palisade_wg0 src6 { fd00:8::2 . 3 }',
    ]);
    expect([...layout.lists.keys()]).toEqual(['d3', 'd1']);
  });

  it('removes a rule (bucket rewrite, elements), moves one, and rewrites acl for a new default policy', () => {
    const rules = new Map(base.rules);
    rules.delete('r1_deny');
    const moved = withRules(
      { ...base, rules, defaultAllow: true },
      rule({ id: 'r2_allow', priority: 1, anySource: true, protocols: [FirewallProtocol.ICMP] }),
    );
    const { text, layout } = renderChanges('wg0', base, moved, applied);
    expect(lines(text)).toEqual([
      'flush chain inet palisade_wg0 b_1',
      'add rule inet palisade_wg0 b_1 meta l4proto . th dport . symhash mod 1 offset 3 @l4_3 accept comment "r2_allow"',
      ...b1(moved, layout).slice(1),
      'flush chain inet palisade_wg0 acl',
      'add rule inet palisade_wg0 acl ct state established,related accept',
      'add rule inet palisade_wg0 acl jump b_1',
      'add rule inet palisade_wg0 acl accept',
      'delete element inet palisade_wg0 dst4_1 { 10.1.0.0/16 . 1 }',
      'delete element inet palisade_wg0 src4 { 10.8.0.4 . 1 }',
    ]);
    expect(layout.numbers.has('r1_deny')).toBe(false);
    expect(layout.lists.has('d3')).toBe(false);
  });
  it('splits a bucket that grows past twice its size and drops a bucket that empties', () => {
    const start = firewall(Array.from({ length: BUCKET * 2 }, (_, i) => rule({ id: `r${i}_allow`, priority: 10 + i, anySource: true })));
    const first = renderTable('wg0', start).layout;
    expect(first.buckets.map((b) => b.ids.length)).toEqual([BUCKET, BUCKET]);
    let state = start;
    let layout = first;
    for (let i = 0; i < BUCKET + 1; i++) {
      const next = withRules(state, rule({ id: `n${i}_allow`, priority: 10 + BUCKET + 1, anySource: true }));
      const r = renderChanges('wg0', state, next, layout);
      state = next;
      layout = r.layout;
    }
    expect(layout.buckets.map((b) => b.ids.length)).toEqual([BUCKET, BUCKET, BUCKET + 1]);
    expect(layout.buckets.flatMap((b) => b.ids)).toEqual(
      [...state.rules.values()].sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : 1)).map((r) => r.id),
    );
    const firstBucket = new Set(layout.buckets[0]!.ids);
    const rules = new Map([...state.rules].filter(([id]) => !firstBucket.has(id)));
    const emptied = renderChanges('wg0', state, { ...state, rules }, layout);
    expect(emptied.text).toContain(`delete chain inet palisade_wg0 b_${layout.buckets[0]!.n}\n`);
    expect(emptied.layout.buckets).toHaveLength(2);
  });
});
