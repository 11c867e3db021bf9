import { create } from '@bufbuild/protobuf';
import {
  type Firewall,
  FirewallMemberSchema,
  FirewallProtocol,
  FirewallRuleSchema,
  FirewallSchema,
  FirewallVerdict,
} from '@palisade/proto';
import fc from 'fast-check';

/**
 * fast-check generators of gateway.proto firewalls. Ids, members, addresses, destinations and
 * ports come from small pools, so that successive firewalls share rules and often differ in one
 * field: the shapes the control plane's deltas produce.
 */
const memberKeys = ['d1', 'd2', 'd3', 'd4', 'd5'];
const v4 = Array.from({ length: 6 }, (_, i) => `10.8.0.${i + 2}`);
const v6 = Array.from({ length: 3 }, (_, i) => `fd00:8::${i + 2}`);
const destinations = [
  '10.1.0.0/16',
  '10.1.2.0/24',
  '10.2.0.5',
  '10.2.0.6-10.2.0.20',
  '192.168.1.0/24',
  'fd00:1::/64',
  'fd00:2::7',
  '0.0.0.0/0',
];
const portPool = [
  { first: 22, last: 22 },
  { first: 443, last: 443 },
  { first: 8000, last: 8100 },
  { first: 8080, last: 8080 },
  { first: 1, last: 65_535 },
];
const ruleIds = ['r1_allow', 'r1_deny', 'r1_claim', 'r2_allow', 'r2_a3_allow', 'r3_deny', 'r4_allow', 'r12_allow'];

const subset = <T>(pool: T[], max: number) => fc.uniqueArray(fc.constantFrom(...pool), { maxLength: max });

/** Member lists that several rules name (groups), in any order: the agent shares their elements. */
const sharedLists = [['d1', 'd2', 'd3'], ['d3', 'd2', 'd1'], ['d4'], ['d2', 'd5', 'd99']];
const membersArb = fc.oneof(subset([...memberKeys, 'd99'], 3), fc.constantFrom(...sharedLists));

const memberArb = (key: string) =>
  fc.record({ key: fc.constant(key), addresses: fc.tuple(subset(v4, 2), subset(v6, 1)).map(([a, b]) => [...a, ...b]) });

const ruleArb = (id: string) =>
  fc
    .record({
      priority: fc.constantFrom(0, 5, 100, 2_147_483_647, -3),
      verdict: fc.constantFrom(FirewallVerdict.ACCEPT, FirewallVerdict.DROP),
      anySource: fc.boolean(),
      members: membersArb,
      destinations: subset(destinations, 3),
      ports: subset(portPool, 2),
      protocols: subset([FirewallProtocol.TCP, FirewallProtocol.UDP, FirewallProtocol.ICMP], 3),
      aclRuleId: fc.constantFrom(1, 2),
    })
    .map((r) => ({ ...r, id, members: r.anySource ? [] : r.members }));

export const firewallArb: fc.Arbitrary<Firewall> = fc
  .record({
    managed: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
    defaultAllow: fc.boolean(),
    ids: subset(ruleIds, ruleIds.length),
    keys: subset(memberKeys, memberKeys.length),
  })
  .chain(({ managed, defaultAllow, ids, keys }) =>
    fc
      .record({
        rules: fc.tuple(...ids.map(ruleArb)),
        members: fc.tuple(...keys.map(memberArb)),
      })
      .map(({ rules, members }) =>
        managed ? create(FirewallSchema, { managed, defaultAllow, rules, members }) : create(FirewallSchema, { managed: false }),
      ),
  );

type Edit =
  | { kind: 'member'; key: string; addresses: string[] }
  | { kind: 'drop-member'; key: string }
  | { kind: 'rule'; rule: Firewall['rules'][number] }
  | { kind: 'drop-rule'; id: string }
  | { kind: 'default' }
  | { kind: 'managed' };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(...memberKeys)
      .chain(memberArb)
      .map((m) => ({ kind: 'member' as const, ...m })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...memberKeys).map((key) => ({ kind: 'drop-member' as const, key })) },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(...ruleIds)
      .chain(ruleArb)
      .map((r) => ({ kind: 'rule' as const, rule: create(FirewallRuleSchema, r) })),
  },
  { weight: 2, arbitrary: fc.constantFrom(...ruleIds).map((id) => ({ kind: 'drop-rule' as const, id })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'default' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'managed' as const }) },
);

function applyEdit(fw: Firewall, edit: Edit): Firewall {
  const next = create(FirewallSchema, {
    managed: fw.managed,
    defaultAllow: fw.defaultAllow,
    rules: [...fw.rules],
    members: [...fw.members],
  });
  switch (edit.kind) {
    case 'member':
      next.members = [...next.members.filter((m) => m.key !== edit.key), create(FirewallMemberSchema, edit)];
      break;
    case 'drop-member':
      next.members = next.members.filter((m) => m.key !== edit.key);
      break;
    case 'rule':
      next.rules = [...next.rules.filter((r) => r.id !== edit.rule.id), edit.rule];
      break;
    case 'drop-rule':
      next.rules = next.rules.filter((r) => r.id !== edit.id);
      break;
    case 'default':
      next.defaultAllow = !next.defaultAllow;
      break;
    case 'managed':
      next.managed = !next.managed;
      break;
  }
  return next;
}

/**
 * A managed firewall followed by firewalls that each differ from the previous one by one edit
 * (a member's addresses, a rule, a removal, the default policy, ACL on/off): what successive
 * deltas produce. Unmanaged firewalls keep their content, so switching back restores it.
 */
export const firewallSequenceArb: fc.Arbitrary<Firewall[]> = fc
  .tuple(
    firewallArb.filter((f) => f.managed),
    fc.array(editArb, { minLength: 1, maxLength: 8 }),
  )
  .map(([first, edits]) => {
    const out = [first];
    for (const edit of edits) out.push(applyEdit(out.at(-1)!, edit));
    return out;
  });
