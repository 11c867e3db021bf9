import { compareRules, type FirewallRuleState, type FirewallState, type MemberState, orderedRules, sameMember, sameRule } from './model.js';

/**
 * nft text for the firewall of one interface: `table inet palisade_<ifname>`, never another.
 *
 *   table inet palisade_wg0 {
 *     set src4, src6          source address . list number        (addresses of each member list)
 *     set dst4_k, dst6_k      destination interval . rule number  (k = rule number mod SHARDS)
 *     set l4_k                protocol . port interval . rule number
 *     chain b_<n> { <rule lines> … }                    buckets of consecutive rules, in order
 *     chain acl { ct state established,related accept; jump b_<n> …; accept|drop }
 *     chain forward { type filter hook forward priority filter; policy accept; iifname "wg0" jump acl }
 *   }
 *
 * Measured with nft 1.0.6 on 6,500 rules (docs/benchmarks.md), and why it looks like this:
 * - Named sets shared by all rules, each element carrying a number, instead of sets per rule:
 *   the kernel finds a set by name with a linear scan of the table's sets, so thousands of
 *   per-rule sets made one apply quadratic (2,000 rules: 10 s of kernel time). A rule line
 *   selects its own elements by concatenating the packet's field with the constant
 *   `symhash mod 1 offset <number>` (nft has no literal constants in concatenations; symhash
 *   mod 1 is 0 for every packet, so the expression is the number).
 * - Source addresses are tagged by *member list*, not by rule: rules naming the same members
 *   (the same groups) share one list and its elements. Lists are interned by content (the
 *   sorted member keys); a member's address change updates every list holding it; a list no rule
 *   uses any more loses its elements in the same transaction.
 * - Destination and port intervals (pipapo sets, whose insertion cost grows with the set) are
 *   spread over SHARDS sets by rule number.
 * - Rule lines sit directly in buckets of at most 2×BUCKET consecutive rules (no chain per rule:
 *   6,500 chains and their jumps cost ~0.8 s of nft). A rule's change rewrites its bucket
 *   (`flush chain` + its lines); a bucket split or removal rewrites the short `acl` chain. Every
 *   line carries `comment "<rule id>"`.
 * - No positions or handles: `insert … position <handle>` and `--echo` make nft fetch the whole
 *   ruleset first (0.2–2 s on a large table).
 * Every text is meant for ONE `nft -f` run: one atomic transaction. Pure.
 */
export const tableName = (ifname: string): string => `palisade_${ifname}`;
const bucketChain = (n: number) => `b_${n}`;

/** Rules per bucket in a whole-table render; a bucket is split when it passes twice that. */
export const BUCKET = 16;
/** Interval sets of each kind (dst4, dst6, l4), chosen by rule number. */
export const SHARDS = 16;

/** A distinct member list: its number (the source elements' last field) and how many rules use it. */
export interface SourceList {
  n: number;
  keys: readonly string[];
  refs: number;
}

/** How the applied table is laid out: the numbers used in set elements, and the buckets. */
export interface Layout {
  /** Number of each rule (its destination and port elements' last field). */
  numbers: ReadonlyMap<string, number>;
  /** The next unused rule number. */
  nextNumber: number;
  /** Member lists in use, by `listKey`. */
  lists: ReadonlyMap<string, SourceList>;
  /** The next unused list number. */
  nextList: number;
  /** Buckets in evaluation order: chain number and the rule ids it holds, in order. */
  buckets: readonly Bucket[];
  /** The next unused bucket number. */
  nextBucket: number;
}

export interface Bucket {
  n: number;
  ids: readonly string[];
}

/** A text to apply and the layout the table has once it is applied. */
export interface Rendered {
  text: string;
  layout: Layout;
}

const SET_TYPES = {
  src4: 'typeof ip saddr . symhash mod 1;',
  src6: 'typeof ip6 saddr . symhash mod 1;',
  dst4: 'typeof ip daddr . symhash mod 1; flags interval;',
  dst6: 'typeof ip6 daddr . symhash mod 1; flags interval;',
  l4: 'typeof meta l4proto . th dport . symhash mod 1; flags interval;',
};
type IntervalKind = 'dst4' | 'dst6' | 'l4';
const INTERVAL_KINDS: IntervalKind[] = ['dst4', 'dst6', 'l4'];
/** Every set of the table, in declaration order, with its type. */
const SETS: [string, string][] = [
  ['src4', SET_TYPES.src4],
  ['src6', SET_TYPES.src6],
  ...INTERVAL_KINDS.flatMap((kind) => Array.from({ length: SHARDS }, (_, k): [string, string] => [`${kind}_${k}`, SET_TYPES[kind]])),
];
const shard = (kind: IntervalKind, n: number) => `${kind}_${n % SHARDS}`;
const ALL_PORTS = '0-65535';

const numberOf = (n: number) => `symhash mod 1 offset ${n}`;

const joined = new WeakMap<readonly string[], string>();
/**
 * The member list a rule's sources come from: its sorted keys joined; null for any source. Rules
 * naming one member list share its key array: it is joined once.
 */
export function listKey(rule: FirewallRuleState): string | null {
  if (rule.anySource) return null;
  let key = joined.get(rule.members);
  if (key === undefined) {
    key = rule.members.join('\n');
    joined.set(rule.members, key);
  }
  return key;
}

/**
 * nft 1.0.6 cannot delete an element of a concatenated interval set whose fields are all single
 * values ("No such file or directory", though it is listed), so single values are written as
 * one-value ranges (`10.1.0.5-10.1.0.5`, `443-443`); nft lists them the same.
 */
const asRange = (v: string) => (v.includes('-') || v.includes('/') ? v : `${v}-${v}`);

/** The addresses of a member list in one family (unique). */
function listAddresses(keys: readonly string[], members: ReadonlyMap<string, MemberState>, family: 'v4' | 'v6'): Set<string> {
  const out = new Set<string>();
  for (const key of keys) {
    const m = members.get(key);
    if (m) for (const a of m[family]) out.add(a);
  }
  return out;
}

/** `protocol . ports` pairs a rule matches; empty: any protocol and port (no l4 match). */
function l4Pairs(rule: FirewallRuleState): string[] {
  const icmp = rule.protocols.includes('icmp') ? [`icmp . ${ALL_PORTS}`, `ipv6-icmp . ${ALL_PORTS}`] : [];
  if (rule.ports.length > 0) {
    const l4 = rule.protocols.length === 0 ? ['tcp', 'udp'] : rule.protocols.filter((p) => p !== 'icmp');
    return [...l4.flatMap((p) => rule.ports.map((port) => `${p} . ${asRange(port)}`)), ...icmp];
  }
  return rule.protocols.flatMap((p) => (p === 'icmp' ? icmp : [`${p} . ${ALL_PORTS}`]));
}

/** Elements by set name. */
type Elements = Map<string, string[]>;
const addTo = (into: Elements, set: string, element: string) => {
  const bag = into.get(set);
  if (bag) bag.push(element);
  else into.set(set, [element]);
};

/** A rule's destination and port elements, with its number, into `into`. */
function ruleElements(rule: FirewallRuleState, n: number, into: Elements): void {
  for (const d of rule.dest4) addTo(into, shard('dst4', n), `${asRange(d)} . ${n}`);
  for (const d of rule.dest6) addTo(into, shard('dst6', n), `${asRange(d)} . ${n}`);
  for (const p of l4Pairs(rule)) addTo(into, shard('l4', n), `${p} . ${n}`);
}

/** A rule's destination and port elements as `set element` strings (for diffs). */
function ruleElementSet(rule: FirewallRuleState | undefined, n: number): Set<string> {
  const out = new Set<string>();
  if (!rule) return out;
  const into: Elements = new Map();
  ruleElements(rule, n, into);
  for (const [set, elements] of into) for (const e of elements) out.add(`${set} ${e}`);
  return out;
}

/** The match lines of a rule, each ending with its verdict and its id as the comment. */
export function ruleLines(rule: FirewallRuleState, n: number, listNumber: number | null): string[] {
  const families: (4 | 6 | null)[] =
    rule.anySource && rule.anyDestination
      ? [null]
      : rule.anyDestination
        ? [4, 6]
        : ([rule.dest4.length > 0 ? 4 : undefined, rule.dest6.length > 0 ? 6 : undefined].filter((f) => f !== undefined) as (4 | 6)[]);
  const k = numberOf(n);
  const end = `${rule.verdict} comment "${rule.id}"`;
  const l4 = l4Pairs(rule).length > 0 ? `meta l4proto . th dport . ${k} @${shard('l4', n)} ` : '';
  return families.map((family) => {
    if (family === null) return `${l4}${end}`;
    const ip = family === 6 ? 'ip6' : 'ip';
    const source = rule.anySource ? '' : `${ip} saddr . ${numberOf(listNumber ?? 0)} @src${family} `;
    const destination = rule.anyDestination ? '' : `${ip} daddr . ${k} @${shard(family === 6 ? 'dst6' : 'dst4', n)} `;
    return `${source}${destination}${l4}${end}`;
  });
}

const list = (values: readonly string[]) => `{ ${values.join(', ')} }`;
const policyLine = (state: FirewallState) => (state.defaultAllow ? 'accept' : 'drop');

/** Removes the table if it exists (a no-op otherwise): `add` first so that `delete` cannot fail. */
export const removeTableText = (ifname: string): string => `table inet ${tableName(ifname)} {}\ndelete table inet ${tableName(ifname)}\n`;

function aclLines(state: FirewallState, buckets: readonly Bucket[]): string[] {
  return ['ct state established,related accept', ...buckets.map((b) => `jump ${bucketChain(b.n)}`), policyLine(state)];
}

/** The lines of a bucket: its rules' lines in order. */
function bucketLines(
  ids: readonly string[],
  state: FirewallState,
  numbers: ReadonlyMap<string, number>,
  lists: ReadonlyMap<string, SourceList>,
) {
  const out: string[] = [];
  for (const id of ids) {
    const rule = state.rules.get(id)!;
    const key = listKey(rule);
    for (const l of ruleLines(rule, numbers.get(id)!, key === null ? null : lists.get(key)!.n)) out.push(l);
  }
  return out;
}

/** A list's source elements (both families), tagged with its number, into `into`. */
function listElements(keys: readonly string[], n: number, members: ReadonlyMap<string, MemberState>, into: Elements): void {
  for (const a of listAddresses(keys, members, 'v4')) addTo(into, 'src4', `${a} . ${n}`);
  for (const a of listAddresses(keys, members, 'v6')) addTo(into, 'src6', `${a} . ${n}`);
}

/** The whole table, replacing any previous one atomically; rules and lists are numbered 1… in order. */
export function renderTable(ifname: string, state: FirewallState): Rendered {
  const rules = orderedRules(state);
  const numbers = new Map<string, number>();
  const lists = new Map<string, SourceList>();
  const elements: Elements = new Map();
  for (const [i, rule] of rules.entries()) {
    numbers.set(rule.id, i + 1);
    ruleElements(rule, i + 1, elements);
    const key = listKey(rule);
    if (key === null) continue;
    const known = lists.get(key);
    if (known) known.refs++;
    else {
      const n = lists.size + 1;
      lists.set(key, { n, keys: rule.members, refs: 1 });
      listElements(rule.members, n, state.members, elements);
    }
  }
  const buckets: Bucket[] = [];
  for (let i = 0; i < rules.length; i += BUCKET) buckets.push({ n: buckets.length + 1, ids: rules.slice(i, i + BUCKET).map((r) => r.id) });
  const out: string[] = [removeTableText(ifname), `table inet ${tableName(ifname)} {`];
  for (const [name, type] of SETS) {
    const own = elements.get(name);
    out.push(`  set ${name} { ${type}${own ? ` elements = ${list(own)};` : ''} }`);
  }
  const chain = (name: string, lines: string[]) => {
    out.push(`  chain ${name} {`);
    for (const l of lines) out.push(`    ${l}`);
    out.push('  }');
  };
  for (const b of buckets) chain(bucketChain(b.n), bucketLines(b.ids, state, numbers, lists));
  chain('acl', aclLines(state, buckets));
  chain('forward', ['type filter hook forward priority filter; policy accept;', `iifname "${ifname}" jump acl`]);
  out.push('}');
  return {
    text: `${out.join('\n')}\n`,
    layout: { numbers, nextNumber: rules.length + 1, lists, nextList: lists.size + 1, buckets, nextBucket: buckets.length + 1 },
  };
}

/** First index in `ids` whose rule sorts after `rule` (binary search). */
function insertionPoint(ids: readonly string[], rule: FirewallRuleState, rules: ReadonlyMap<string, FirewallRuleState>): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareRules(rules.get(ids[mid]!)!, rule) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The transaction taking the table from `before` (applied, laid out as `layout`) to `after`,
 * touching only what differs: removed/added/changed rules (their elements and the bucket that
 * holds them), member lists that appear, disappear or hold a member whose addresses changed,
 * the `acl` chain when buckets or the default policy change. Both states are managed. Empty
 * text: nothing to do.
 */
export function renderChanges(ifname: string, before: FirewallState, after: FirewallState, layout: Layout): Rendered {
  const t = `inet ${tableName(ifname)}`;
  const out: string[] = [];
  const numbers = new Map(layout.numbers);
  let nextNumber = layout.nextNumber;
  let nextBucket = layout.nextBucket;
  const lists = new Map(layout.lists);
  let nextList = layout.nextList;
  const numberOfRule = (id: string) => {
    const v = numbers.get(id);
    if (v === undefined) throw new Error(`no number known for rule '${id}'`);
    return v;
  };
  const adds: Elements = new Map();
  const deletes: Elements = new Map();
  const diff = (was: Set<string>, now: Set<string>, set?: string) => {
    for (const e of was)
      if (!now.has(e)) set ? addTo(deletes, set, e) : addTo(deletes, e.slice(0, e.indexOf(' ')), e.slice(e.indexOf(' ') + 1));
    for (const e of now) if (!was.has(e)) set ? addTo(adds, set, e) : addTo(adds, e.slice(0, e.indexOf(' ')), e.slice(e.indexOf(' ') + 1));
  };

  const changedMembers = new Set<string>();
  if (before.members !== after.members) {
    for (const [key, m] of before.members) if (!sameMember(m, after.members.get(key))) changedMembers.add(key);
    for (const key of after.members.keys()) if (!before.members.has(key)) changedMembers.add(key);
  }

  /** Lists whose rule count changed in this transaction. */
  const touchedLists = new Set<string>();
  const refer = (key: string | null, by: number) => {
    if (key === null) return;
    touchedLists.add(key);
    const known = lists.get(key);
    if (known) lists.set(key, { ...known, refs: known.refs + by });
    else lists.set(key, { n: nextList++, keys: key === '' ? [] : key.split('\n'), refs: by });
  };

  const toPlace: FirewallRuleState[] = [];
  const toUnplace = new Set<string>();
  /** Rules changed in place: their bucket is rewritten. */
  const rewritten = new Set<string>();
  for (const [id, old] of before.rules !== after.rules ? before.rules : []) {
    if (after.rules.has(id)) continue;
    diff(ruleElementSet(old, numberOfRule(id)), new Set());
    refer(listKey(old), -1);
    toUnplace.add(id);
    numbers.delete(id);
  }
  for (const [id, rule] of before.rules !== after.rules ? after.rules : []) {
    const old = before.rules.get(id);
    if (!old) {
      const n = nextNumber++;
      numbers.set(id, n);
      diff(new Set(), ruleElementSet(rule, n));
      refer(listKey(rule), 1);
      toPlace.push(rule);
    } else if (!sameRule(old, rule)) {
      const n = numberOfRule(id);
      if (old.priority !== rule.priority || old.verdict !== rule.verdict) {
        toUnplace.add(id);
        toPlace.push(rule);
      } else rewritten.add(id);
      diff(ruleElementSet(old, n), ruleElementSet(rule, n));
      const [was, now] = [listKey(old), listKey(rule)];
      if (was !== now) {
        refer(was, -1);
        refer(now, 1);
      }
    }
  }

  // Lists: new ones get their elements, unused ones lose them, the others follow their members.
  for (const key of touchedLists) {
    const l = lists.get(key)!;
    const existed = layout.lists.has(key);
    if (l.refs === 0) lists.delete(key);
    if (existed && l.refs === 0) listElements(l.keys, l.n, before.members, deletes);
    else if (!existed && l.refs > 0) listElements(l.keys, l.n, after.members, adds);
  }
  if (changedMembers.size > 0) {
    for (const [key, l] of lists) {
      if (!layout.lists.has(key) || !l.keys.some((k) => changedMembers.has(k))) continue;
      for (const [family, set] of [
        ['v4', 'src4'],
        ['v6', 'src6'],
      ] as const) {
        const tag = (addresses: Set<string>) => new Set([...addresses].map((a) => `${a} . ${l.n}`));
        diff(tag(listAddresses(l.keys, before.members, family)), tag(listAddresses(l.keys, after.members, family)), set);
      }
    }
  }

  // Buckets: take out the removed and moved rules, put the new and moved ones where they sort.
  let buckets: { n: number; ids: string[]; dirty: boolean; fresh: boolean }[] = layout.buckets.map((b) => ({
    n: b.n,
    ids: b.ids as string[],
    dirty: false,
    fresh: false,
  }));
  let aclDirty = before.defaultAllow !== after.defaultAllow;
  if (toUnplace.size > 0 || rewritten.size > 0) {
    for (const b of buckets) {
      if (b.ids.some((id) => toUnplace.has(id))) {
        b.ids = b.ids.filter((id) => !toUnplace.has(id));
        b.dirty = true;
      } else if (rewritten.size > 0 && b.ids.some((id) => rewritten.has(id))) b.dirty = true;
    }
  }
  const removedBuckets = buckets.filter((b) => b.ids.length === 0 && b.dirty).map((b) => b.n);
  if (removedBuckets.length > 0) {
    buckets = buckets.filter((b) => b.ids.length > 0 || !b.dirty);
    aclDirty = true;
  }
  for (const rule of toPlace.sort(compareRules)) {
    let target = buckets.findLastIndex((b) => b.ids.length > 0 && compareRules(after.rules.get(b.ids[0]!)!, rule) <= 0);
    if (buckets.length === 0) {
      buckets.push({ n: nextBucket++, ids: [], dirty: true, fresh: true });
      aclDirty = true;
    }
    if (target < 0) target = 0;
    const b = buckets[target]!;
    if (!b.dirty) b.ids = [...b.ids];
    b.ids.splice(insertionPoint(b.ids, rule, after.rules), 0, rule.id);
    b.dirty = true;
    if (b.ids.length > 2 * BUCKET) {
      const half = b.ids.length >> 1;
      buckets.splice(target + 1, 0, { n: nextBucket++, ids: b.ids.slice(half), dirty: true, fresh: true });
      b.ids = b.ids.slice(0, half);
      aclDirty = true;
    }
  }

  for (const b of buckets) {
    if (!b.dirty) continue;
    out.push(b.fresh ? `add chain ${t} ${bucketChain(b.n)}` : `flush chain ${t} ${bucketChain(b.n)}`);
    for (const l of bucketLines(b.ids, after, numbers, lists)) out.push(`add rule ${t} ${bucketChain(b.n)} ${l}`);
  }
  if (aclDirty) out.push(`flush chain ${t} acl`, ...aclLines(after, buckets).map((l) => `add rule ${t} acl ${l}`));
  for (const n of removedBuckets) out.push(`delete chain ${t} ${bucketChain(n)}`);
  // Deleting before adding: a changed rule may re-add an element it had under a different shape.
  for (const [name, elements] of deletes) out.push(`delete element ${t} ${name} ${list(elements)}`);
  for (const [name, elements] of adds) out.push(`add element ${t} ${name} ${list(elements)}`);

  return {
    text: out.length > 0 ? `${out.join('\n')}\n` : '',
    layout: { numbers, nextNumber, lists, nextList, buckets: buckets.map(({ n, ids }) => ({ n, ids })), nextBucket },
  };
}
