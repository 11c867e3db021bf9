import { execFileSync } from 'node:child_process';
import { create } from '@bufbuild/protobuf';
import { FirewallSchema, FirewallVerdict } from '@palisade/proto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandRunner } from '#src/adapters/command-runner.js';
import { createNftFirewall } from '#src/adapters/nft-firewall.js';
import { firewallFromProto, UNMANAGED } from '#src/firewall/model.js';
import { renderTable, tableName } from '#src/firewall/render.js';
import type { CommandRunner } from '#src/ports/command-runner.js';
import { firewallArb, firewallSequenceArb } from './support/firewall-arbitraries.js';
import { largeFirewall } from './support/firewall-fixture.js';
import { deleteNs, ip, isRoot, uniqueSuffix } from './support/netns.js';

/**
 * The nft adapter against real nftables, inside a throw-away network namespace (the host's
 * tables are never touched): every rendered table parses (`nft -c -f`); random sequences of
 * firewalls applied one after the other through the adapter's deltas leave exactly the table a
 * fresh whole-table apply of the last one builds; an unchanged snapshot runs no transaction; a
 * table deleted behind the agent's back is rebuilt; unmanaged removes the table. Needs root.
 */
const canRun = isRoot();
const suffix = uniqueSuffix();
const ns = `pgw-f-${suffix}`;
const nft = (args: string[], stdin?: string) =>
  execFileSync('ip', ['netns', 'exec', ns, 'nft', ...args], { encoding: 'utf8', input: stdin ?? '', stdio: ['pipe', 'pipe', 'pipe'] });

/**
 * What a table means, independent of how it was built: the rules in evaluation order (acl →
 * buckets → their lines, named by each line's comment), the default policy, each rule's lines and
 * the set elements with the numbers replaced by names: a rule number by the rule's id, a member
 * list number by the ids of the rules using it; the interval shards of one kind read as one set.
 */
function viewOf(ifname: string): unknown {
  let text: string;
  try {
    text = nft(['list', 'table', 'inet', tableName(ifname)]);
  } catch {
    return null;
  }
  const chains = new Map<string, string[]>();
  const sets = new Map<string, string[]>();
  const blocks = text.split(/\n\t(?=set |chain )/).slice(1);
  for (const block of blocks) {
    const [head, ...rest] = block.split('\n').map((l) => l.trim());
    const [kind, name] = head!.split(' ');
    const body = rest.filter((l) => l !== '' && l !== '}');
    if (kind === 'chain') chains.set(name!, body);
    else {
      const joined = body.join(' ');
      const m = /elements = \{ (.*) \}/.exec(joined);
      const merged = name!.replace(/_\d+$/, '');
      sets.set(merged, [...(sets.get(merged) ?? []), ...(m ? m[1]!.split(/,\s*/) : [])]);
    }
  }
  const acl = chains.get('acl') ?? [];
  const lines = acl.flatMap((l) => {
    const bucket = /^jump (b_\d+)$/.exec(l)?.[1];
    return bucket ? (chains.get(bucket) ?? []) : [];
  });
  const idOfLine = (l: string) => /comment "([^"]+)"$/.exec(l)?.[1] ?? '?';
  const ruleOf = new Map<string, string>();
  const usersOf = new Map<string, Set<string>>();
  for (const l of lines) {
    for (const m of l.matchAll(/offset (\d+) @(src|dst|l4)/g)) {
      if (m[2] === 'src') usersOf.set(m[1]!, (usersOf.get(m[1]!) ?? new Set()).add(idOfLine(l)));
      else ruleOf.set(m[1]!, idOfLine(l));
    }
  }
  const listName = (n: string) => (usersOf.has(n) ? `list(${[...usersOf.get(n)!].sort().join(',')})` : `?list${n}`);
  const ruleName = (n: string) => ruleOf.get(n) ?? `?${n}`;
  const order = [...new Set(lines.map(idOfLine))];
  const renumber = (l: string) =>
    l.replace(
      /offset (\d+) @(src[46]|dst[46]|l4)(_\d+)?/g,
      (_, n, set) => `offset ${set.startsWith('src') ? listName(n) : ruleName(n)} @${set}`,
    );
  const rules: Record<string, string[]> = {};
  for (const l of lines) {
    const id = idOfLine(l);
    rules[id] = [...(rules[id] ?? []), renumber(l)];
  }
  return {
    head: [acl[0], acl.at(-1)],
    forward: chains.get('forward')?.map((l) => l.replace(`"${ifname}"`, '"<if>"')),
    order,
    rules,
    sets: Object.fromEntries(
      [...sets].map(([name, elements]) => [
        name,
        elements.map((e) => e.replace(/ \. (\d+)$/, (_, n) => ` . ${name.startsWith('src') ? listName(n) : ruleName(n)}`)).sort(),
      ]),
    ),
  };
}

/** A runner that counts `nft -f` transactions. */
function counting(runner: CommandRunner) {
  const counter = { transactions: 0, runner: { ...runner } as CommandRunner };
  counter.runner.run = (argv, options) => {
    if (argv.includes('-f')) counter.transactions++;
    return runner.run(argv, options);
  };
  return counter;
}

describe.skipIf(!canRun)('nft firewall adapter (system: real nftables in a network namespace)', () => {
  const runner = createCommandRunner(['ip', 'netns', 'exec', ns]);

  beforeAll(() => {
    ip('netns', 'add', ns);
  });
  afterAll(() => deleteNs(ns));

  it('every rendered table parses (nft -c -f)', () => {
    fc.assert(
      fc.property(firewallArb, (fw) => {
        const state = firewallFromProto(fw);
        if (!state.managed) return;
        nft(['-c', '-f', '-'], renderTable('fc0', state).text);
      }),
      { numRuns: 60 },
    );
    expect(viewOf('fc0')).toBeNull(); // check mode committed nothing
  });

  it('applies random sequences as deltas to exactly the table a fresh apply of the last firewall builds', async () => {
    await fc.assert(
      fc.asyncProperty(firewallSequenceArb, async (firewalls) => {
        const incremental = createNftFirewall({ ifname: 'inc0', runner });
        for (const [i, fw] of firewalls.entries()) {
          // Firewalls carry their content while unmanaged (so that switching back restores it);
          // the protocol sends an empty one, which the model maps to the same UNMANAGED.
          const state = firewallFromProto(fw);
          await incremental.apply(state, { verify: i === 0 });
          const fresh = createNftFirewall({ ifname: 'new0', runner });
          await fresh.apply(state, { verify: true });
          expect(viewOf('inc0')).toEqual(viewOf('new0'));
        }
        await incremental.remove();
        await createNftFirewall({ ifname: 'new0', runner }).remove();
      }),
      { numRuns: 15 },
    );
  }, 180_000);

  it('changes nothing for an unchanged snapshot, rebuilds a table deleted behind its back, and removes it when unmanaged', async () => {
    const counter = counting(runner);
    const port = createNftFirewall({ ifname: 'snap0', runner: counter.runner });
    const fw = create(FirewallSchema, {
      managed: true,
      defaultAllow: false,
      rules: [{ id: 'r1_allow', priority: 1, verdict: FirewallVerdict.ACCEPT, members: ['d1'], destinations: ['10.1.0.0/16'] }],
      members: [{ key: 'd1', addresses: ['10.8.0.2'] }],
    });
    expect(await port.apply(firewallFromProto(fw), { verify: true })).toBe(true);
    expect(counter.transactions).toBe(1);
    const built = viewOf('snap0');
    expect(await port.apply(firewallFromProto(fw), { verify: true })).toBe(false);
    expect(counter.transactions).toBe(1);
    nft(['delete', 'table', 'inet', tableName('snap0')]);
    expect(await port.apply(firewallFromProto(fw), { verify: true })).toBe(true);
    expect(viewOf('snap0')).toEqual(built);
    expect(await port.apply(UNMANAGED, { verify: true })).toBe(true);
    expect(viewOf('snap0')).toBeNull();
    expect(await port.apply(UNMANAGED, { verify: true })).toBe(false);
    expect(counter.transactions).toBe(3);
  });

  it('rebuilds the whole table after a failed transaction, and never touches other tables', async () => {
    nft(['-f', '-'], 'table inet other {\n  chain c {\n    type filter hook forward priority 0; policy accept;\n  }\n}\n');
    const port = createNftFirewall({ ifname: 'fail0', runner });
    const one = firewallFromProto(
      create(FirewallSchema, { managed: true, rules: [{ id: 'r1_allow', verdict: FirewallVerdict.ACCEPT, anySource: true }], members: [] }),
    );
    await port.apply(one, { verify: true });
    // Someone removes an element the agent believes is there: the next delta fails as a whole…
    const two = firewallFromProto(
      create(FirewallSchema, {
        managed: true,
        rules: [{ id: 'r1_allow', verdict: FirewallVerdict.ACCEPT, members: ['d1'] }],
        members: [{ key: 'd1', addresses: ['10.8.0.2'] }],
      }),
    );
    await port.apply(two);
    nft(['delete', 'element', 'inet', tableName('fail0'), 'src4', '{ 10.8.0.2 . 1 }']);
    const three = firewallFromProto(create(FirewallSchema, { managed: true, rules: [], members: [] }));
    await expect(port.apply(three)).rejects.toThrow(/nft -f - failed/);
    expect(viewOf('fail0')).toMatchObject({ order: ['r1_allow'] });
    // …and the next apply starts from a whole table.
    await port.apply(three);
    expect(viewOf('fail0')).toMatchObject({ order: [] });
    await port.remove();
    expect(viewOf('fail0')).toBeNull();
    expect(nft(['list', 'tables'])).toContain('table inet other');
  });

  it('applies 500 ACL rules over 1,000 members as one transaction', async () => {
    const port = createNftFirewall({ ifname: 'big0', runner });
    const state = firewallFromProto(largeFirewall({ aclRules: 500, members: 1000, defaultAllow: true }));
    await port.apply(state, { verify: true });
    expect((viewOf('big0') as { order: string[] }).order).toHaveLength(state.rules.size);
    await port.remove();
  });
});
