import { FirewallVerdict } from '@palisade/proto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLAIM_PRIORITY, candidatePartIds, compileFirewall, memberKey } from './compile.js';
import { decide } from './decide.js';
import { referenceVerdict } from './reference.test-support.js';
import type { AclProtocol, CompileAlias, CompileInput, CompileRule, CompileSources } from './types.js';

const NOW = new Date('2026-11-24T12:00:00Z');
const none: CompileSources = { any: false, devices: [] };
const only = (...devices: number[]): CompileSources => ({ any: false, devices });
const anyone: CompileSources = { any: true, devices: [] };

function rule(id: number, over: Partial<CompileRule> = {}): CompileRule {
  return {
    id,
    priority: 100,
    enabled: true,
    expires: null,
    destinations: [],
    ports: [],
    protocols: [],
    aliasIds: [],
    allowed: none,
    denied: none,
    ...over,
  };
}

function input(rules: CompileRule[], over: Partial<CompileInput> = {}): CompileInput {
  return {
    aclEnabled: true,
    defaultAllow: false,
    rules,
    aliases: new Map(),
    devices: [
      { id: 1, addresses: ['10.8.0.2', 'fd00:8::2'] },
      { id: 2, addresses: ['10.8.0.3'] },
      { id: 3, addresses: [] },
    ],
    now: NOW,
    ...over,
  };
}

const verdictOf = (i: CompileInput, device: number, destination: string, port?: number, protocol: AclProtocol = 'tcp') =>
  decide(compileFirewall(i), { sources: new Set([memberKey(device)]), destination, port, protocol });

describe('compileFirewall', () => {
  it('is unmanaged with the ACL off, whatever the rules', () => {
    const fw = compileFirewall(input([rule(1, { allowed: only(1) })], { aclEnabled: false }));
    expect(fw.managed).toBe(false);
    expect(fw.rules).toEqual([]);
    expect(fw.members).toEqual([]);
  });

  it('emits deny/allow parts per selector, claims only under allow-by-default, members d<id>', () => {
    const aliases = new Map<number, CompileAlias>([
      [7, { id: 7, kind: 'destination', destinations: ['10.2.0.0/16'], ports: ['443'], protocols: ['tcp'] }],
    ]);
    const r = rule(12, { destinations: ['10.1.0.0/24'], ports: ['80-90'], aliasIds: [7], allowed: only(2, 1), denied: only(3) });
    const deny = compileFirewall(input([r], { aliases }));
    expect(deny.rules.map((x) => x.id)).toEqual(['r12_a7_deny', 'r12_deny', 'r12_a7_allow', 'r12_allow']);
    const listOf = (fw: typeof deny, id: string) => fw.memberLists.find((l) => l.id === fw.rules.find((x) => x.id === id)?.memberList);
    expect(listOf(deny, 'r12_allow')?.members).toEqual(['d1', 'd2']);
    expect(listOf(deny, 'r12_deny')?.members).toEqual(['d3']);
    expect(deny.rules.every((x) => x.members.length === 0)).toBe(true);
    expect(deny.rules.find((x) => x.id === 'r12_allow')?.ports).toMatchObject([{ first: 80, last: 90 }]);
    expect(deny.members.map((m) => m.key)).toEqual(['d1', 'd2']);
    const allow = compileFirewall(input([r], { aliases, defaultAllow: true }));
    const claims = allow.rules.filter((x) => x.id.endsWith('_claim'));
    expect(claims.map((x) => [x.id, x.priority, x.anySource, x.verdict])).toEqual([
      ['r12_a7_claim', CLAIM_PRIORITY, true, FirewallVerdict.DROP],
      ['r12_claim', CLAIM_PRIORITY, true, FirewallVerdict.DROP],
    ]);
    expect(allow.rules.at(-1)?.id).toBe('r12_claim');
  });

  it('omits the deny part without denied members and uses any_source for all users and network devices', () => {
    const fw = compileFirewall(input([rule(1, { allowed: anyone })]));
    expect(fw.rules.map((r) => [r.id, r.anySource, r.members, r.memberList])).toEqual([['r1_allow', true, [], '']]);
    expect(fw.memberLists).toEqual([]);
  });

  it('sends each distinct member list once, named by an id derived from its content', () => {
    const fw = compileFirewall(
      input([rule(1, { allowed: only(1, 2) }), rule(2, { allowed: only(2, 1), denied: only(3) }), rule(3, { allowed: only(3) })]),
    );
    const named = (id: string) => fw.rules.find((r) => r.id === id)?.memberList;
    expect(named('r1_allow')).toBe(named('r2_allow'));
    expect(named('r2_deny')).toBe(named('r3_allow'));
    expect(fw.memberLists.map((l) => l.members).sort()).toEqual([['d1', 'd2'], ['d3']]);
    expect(fw.memberLists.every((l) => /^l[0-9a-f]{32}$/.test(l.id))).toBe(true);
    // The same content compiled again (a delta, another replica) gets the same id.
    expect(compileFirewall(input([rule(9, { allowed: only(2, 1) })])).rules[0]?.memberList).toBe(named('r1_allow'));
  });

  it('gives a rule with only destination aliases no manual part; component aliases merge into it', () => {
    const aliases = new Map<number, CompileAlias>([
      [1, { id: 1, kind: 'destination', destinations: ['10.5.0.1'], ports: [], protocols: [] }],
      [2, { id: 2, kind: 'component', destinations: ['10.6.0.0/16'], ports: ['22'], protocols: ['tcp'] }],
    ]);
    const onlyTarget = compileFirewall(input([rule(3, { aliasIds: [1], allowed: only(1) })], { aliases }));
    expect(onlyTarget.rules.map((r) => r.id)).toEqual(['r3_a1_allow']);
    const both = compileFirewall(input([rule(3, { destinations: ['10.7.0.1'], aliasIds: [2, 1], allowed: only(1) })], { aliases }));
    expect(both.rules.map((r) => [r.id, r.destinations])).toEqual([
      ['r3_a1_allow', ['10.5.0.1']],
      ['r3_allow', ['10.7.0.1', '10.6.0.0/16']],
    ]);
  });

  it('ignores disabled rules and rules whose expiry has passed', () => {
    const fw = compileFirewall(
      input([
        rule(1, { enabled: false, allowed: only(1) }),
        rule(2, { expires: NOW, allowed: only(1) }),
        rule(3, { expires: new Date(NOW.getTime() + 1), allowed: only(1) }),
      ]),
    );
    expect(fw.rules.map((r) => r.id)).toEqual(['r3_allow']);
  });

  it('is deterministic: the order of its input does not matter, ids are nft-safe', () => {
    fc.assert(
      fc.property(arbInput(), fc.integer(), (i, seed) => {
        const shuffled = { ...i, rules: shuffle(i.rules, seed), devices: shuffle(i.devices, seed) };
        const a = compileFirewall(i);
        expect(compileFirewall(shuffled)).toEqual(a);
        for (const r of a.rules) expect(r.id).toMatch(/^[a-z0-9_]{1,48}$/);
      }),
    );
  });

  it('lists every part id of a rule among its candidate ids', () => {
    fc.assert(
      fc.property(arbInput(), (i) => {
        for (const r of i.rules) {
          const ids = compileFirewall({ ...i, rules: [r] }).rules.map((x) => x.id);
          const candidates = new Set(candidatePartIds(r.id, r.aliasIds));
          for (const id of ids) expect(candidates.has(id)).toBe(true);
        }
      }),
    );
  });
});

describe('decide', () => {
  it('lets deny win at the same priority, across rules too', () => {
    const rules = [rule(1, { allowed: only(1) }), rule(2, { denied: only(1), allowed: only(2) })];
    expect(verdictOf(input(rules), 1, '10.1.0.1', 80)).toMatchObject({ verdict: 'deny', rule: { aclRuleId: 2 } });
    expect(verdictOf(input(rules), 2, '10.1.0.1', 80)).toMatchObject({ verdict: 'allow', rule: { aclRuleId: 2 } });
  });

  it('lets the lower priority number decide', () => {
    const rules = [rule(1, { priority: 10, allowed: only(1) }), rule(2, { priority: 20, denied: only(1), allowed: only(2) })];
    expect(verdictOf(input(rules), 1, '10.1.0.1', 80)).toMatchObject({ verdict: 'allow', rule: { aclRuleId: 1 } });
  });

  it('claims a destination under allow-by-default; elsewhere the default decides both ways', () => {
    const rules = [rule(1, { destinations: ['10.1.0.0/24'], allowed: only(1) })];
    const open = input(rules, { defaultAllow: true });
    expect(verdictOf(open, 2, '10.1.0.9', 80)).toMatchObject({ verdict: 'deny', rule: { id: 'r1_claim' } });
    expect(verdictOf(open, 2, '10.2.0.9', 80)).toEqual({ verdict: 'allow', rule: null });
    expect(verdictOf(input(rules), 2, '10.2.0.9', 80)).toEqual({ verdict: 'deny', rule: null });
    expect(verdictOf(input(rules), 1, '10.1.0.9', 80)).toMatchObject({ verdict: 'allow', rule: { id: 'r1_allow' } });
  });

  it('matches IPv6 destinations, ranges, ports (TCP and UDP) and ICMP per family', () => {
    const rules = [
      rule(1, { destinations: ['fd00:1::/64', '10.1.0.5-10.1.0.9'], ports: ['8000-8100'], allowed: only(1) }),
      rule(2, { destinations: ['fd00:2::1'], protocols: ['icmp'], allowed: only(1) }),
    ];
    const i = input(rules);
    expect(verdictOf(i, 1, 'fd00:1::abcd', 8080, 'udp').verdict).toBe('allow');
    expect(verdictOf(i, 1, '10.1.0.9', 8000).verdict).toBe('allow');
    expect(verdictOf(i, 1, '10.1.0.10', 8000).verdict).toBe('deny');
    expect(verdictOf(i, 1, '10.1.0.5', 8101).verdict).toBe('deny');
    expect(verdictOf(i, 1, '10.1.0.5', undefined, 'icmp').verdict).toBe('deny');
    expect(verdictOf(i, 1, 'fd00:2::1', undefined, 'icmp').verdict).toBe('allow');
    expect(verdictOf(i, 1, 'fd00:2::1', 22).verdict).toBe('deny');
  });

  it('agrees with the plain semantics over generated rule sets', () => {
    fc.assert(
      fc.property(arbInput(), arbPacket(), (i, p) => {
        const fw = compileFirewall(i);
        const source = new Set(p.devices);
        const got = decide(fw, {
          sources: new Set(p.devices.map(memberKey)),
          destination: p.destination,
          port: p.port,
          protocol: p.protocol,
        });
        const want = referenceVerdict(i, source, p.destination, p.port, p.protocol);
        expect(got.verdict).toBe(want.verdict);
        // A claim under deny-by-default is the default policy's drop (no claim rule is emitted).
        const byRule = want.by === 'named' || (want.by === 'claim' && i.defaultAllow);
        if (byRule) expect(want.ruleIds).toContain(got.rule?.aclRuleId);
        else expect(got.rule).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });
});

// --- generators ---------------------------------------------------------------------------------

const DESTINATIONS = ['10.0.0.0/31', '10.0.0.2', '10.0.0.1-10.0.0.3', '0.0.0.0/0', 'fd00::1', 'fd00::/127', 'fd00::2-fd00::3', '::/0'];
const PACKET_DESTINATIONS = ['10.0.0.0', '10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', 'fd00::', 'fd00::1', 'fd00::3', 'fd00::9'];
const PORTS = ['22', '80', '80-90', '443'];
const PROTOCOLS: AclProtocol[] = ['tcp', 'udp', 'icmp'];
const DEVICES = [1, 2, 3, 4];

const arbSources = (): fc.Arbitrary<CompileSources> =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(anyone) },
    { weight: 6, arbitrary: fc.uniqueArray(fc.constantFrom(...DEVICES), { maxLength: 3 }).map((d) => only(...d)) },
  );

const arbSelector = () =>
  fc.record({
    destinations: fc.uniqueArray(fc.constantFrom(...DESTINATIONS), { maxLength: 2 }),
    ports: fc.uniqueArray(fc.constantFrom(...PORTS), { maxLength: 2 }),
    protocols: fc.uniqueArray(fc.constantFrom(...PROTOCOLS), { maxLength: 2 }),
  });

const arbAlias = (id: number) =>
  fc
    .record({ kind: fc.constantFrom('destination' as const, 'component' as const), selector: arbSelector() })
    .map(({ kind, selector }): CompileAlias => ({ id, kind, ...selector }));

const arbRule = (id: number) =>
  fc
    .record({
      priority: fc.constantFrom(1, 2, 3),
      enabled: fc.boolean(),
      expires: fc.constantFrom(null, null, new Date(NOW.getTime() - 1), new Date(NOW.getTime() + 1000)),
      selector: arbSelector(),
      aliasIds: fc.uniqueArray(fc.constantFrom(1, 2, 3), { maxLength: 2 }),
      allowed: arbSources(),
      denied: arbSources(),
    })
    .map(({ selector, ...r }): CompileRule => ({ id, ...r, ...selector }));

function arbInput(): fc.Arbitrary<CompileInput> {
  return fc
    .record({
      defaultAllow: fc.boolean(),
      ruleCount: fc.integer({ min: 0, max: 6 }),
      aliases: fc.tuple(arbAlias(1), arbAlias(2), arbAlias(3)),
    })
    .chain(({ defaultAllow, ruleCount, aliases }) =>
      fc.tuple(...Array.from({ length: ruleCount }, (_, i) => arbRule(i + 1))).map(
        (rules): CompileInput => ({
          aclEnabled: true,
          defaultAllow,
          rules,
          aliases: new Map(aliases.map((a) => [a.id, a])),
          devices: DEVICES.map((id) => ({ id, addresses: [`10.8.0.${id}`] })),
          now: NOW,
        }),
      ),
    );
}

const arbPacket = () =>
  fc.record({
    devices: fc.uniqueArray(fc.constantFrom(...DEVICES, 9), { minLength: 1, maxLength: 2 }),
    destination: fc.constantFrom(...PACKET_DESTINATIONS),
    port: fc.constantFrom(22, 80, 85, 91, 443, 8080),
    protocol: fc.constantFrom(...PROTOCOLS),
  });

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed | 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1_103_515_245) + 12_345) | 0;
    const j = Math.abs(s) % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
