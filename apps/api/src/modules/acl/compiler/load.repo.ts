import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import type { AclProtocol, CompileAlias, CompileDevice, CompileInput, CompileRule, CompileSources } from './types.js';

/**
 * The compiler's input for one location, read in six statements whatever the number of rules and
 * devices (run it inside the feed's consistent transaction so that it matches the revision).
 * Only applied rows count: applied rules of the location (or of all locations) and the applied
 * version of their aliases; pending children are never read.
 *
 * Members resolve to devices: user devices of the allowed/denied users, of the users in the
 * allowed/denied groups, or of every user ("all users"); network devices named, or every network
 * device of the location. Both "all" flags on one side is any source. A rule's member list does
 * not depend on where devices hold addresses, so an address change is a member update only.
 */
export interface LoadOptions {
  /** Only these rules (a delta); every device is still resolved for them. */
  ruleIds?: readonly number[];
  /** Skip the devices' addresses (a delta of rules only). */
  withoutAddresses?: boolean;
  /**
   * Extra devices to resolve as members, e.g. the access check's stand-in for a user without a
   * device (id 0): `userId` for a user device, null for a network device of the location.
   */
  probes?: readonly { id: number; userId: number | null }[];
}

/**
 * A rule row; its arrays arrive joined with commas (no entry holds one: addresses, ranges, port
 * numbers, protocol names), which the driver hands over much faster than text[] at 5,000 rules.
 */
export interface RuleRow {
  id: number;
  priority: number;
  enabled: boolean;
  expires: Date | string | null;
  allow_all_users: boolean;
  deny_all_users: boolean;
  allow_all_network_devices: boolean;
  deny_all_network_devices: boolean;
  destinations: string;
  ports: string;
  protocols: string;
}

const splitList = (joined: string): string[] => (joined === '' ? [] : joined.split(','));

export interface LinkRow {
  rule_id: number;
  /** u(ser), g(roup), d(evice), a(lias) */
  kind: 'u' | 'g' | 'd' | 'a';
  ref: number;
  allow: boolean;
}

/** Applied rules of the location (or of all locations), optionally only these ids. */
const ruleFilter = (locationId: number, ruleIds?: readonly number[]) => sql`
  r.state = 'applied'
  and (r.all_locations or exists (select 1 from acl_rule_locations rl where rl.rule_id = r.id and rl.location_id = ${locationId}))
  ${ruleIds ? sql`and r.id = any(${sql.param([...ruleIds])}::int[])` : sql``}`;

const rulesQuery = (locationId: number, ruleIds?: readonly number[]) => sql`
  select r.id, r.priority, r.enabled, r.expires, r.allow_all_users, r.deny_all_users,
         r.allow_all_network_devices, r.deny_all_network_devices,
         array_to_string(r.destinations, ',') as destinations, array_to_string(r.ports, ',') as ports,
         array_to_string(r.protocols, ',') as protocols
    from acl_rules r
   where ${ruleFilter(locationId, ruleIds)}
   order by r.id`;

/** The same rules' links, selected by the same filter (no id list to send for 5,000 rules). */
const linksQuery = (locationId: number, ruleIds?: readonly number[]) => sql`
  with rs as (select r.id from acl_rules r where ${ruleFilter(locationId, ruleIds)})
  select rule_id, 'u' as kind, user_id as ref, allow from acl_rule_users join rs on rs.id = rule_id
  union all select rule_id, 'g', group_id, allow from acl_rule_groups join rs on rs.id = rule_id
  union all select rule_id, 'd', device_id, allow from acl_rule_devices join rs on rs.id = rule_id
  union all select rule_id, 'a', alias_id, true from acl_rule_aliases join rs on rs.id = rule_id`;

export async function loadCompileInput(
  db: Db,
  locationId: number,
  now: Date,
  options: LoadOptions = {},
): Promise<CompileInput | undefined> {
  const [location] = await queryRows<{ acl_enabled: boolean; acl_default_allow: boolean }>(
    db,
    sql`select acl_enabled, acl_default_allow from locations where id = ${locationId}`,
  );
  if (!location) return undefined;
  const ruleRows = await queryRows<RuleRow>(db, rulesQuery(locationId, options.ruleIds));
  const ruleIds = ruleRows.map((r) => r.id);
  const links = ruleIds.length > 0 ? await queryRows<LinkRow>(db, linksQuery(locationId, options.ruleIds)) : [];
  const aliasIds = [...new Set(links.filter((l) => l.kind === 'a').map((l) => l.ref))];
  const groupIds = [...new Set(links.filter((l) => l.kind === 'g').map((l) => l.ref))];
  const aliases = await loadAliases(db, aliasIds);
  const groupUsers = await loadGroupUsers(db, groupIds);
  const devices = ruleIds.length > 0 ? await loadDevices(db, locationId, options.probes ?? []) : emptyDevices();
  const addresses = options.withoutAddresses ? [] : await loadAddresses(db, locationId);
  return {
    aclEnabled: location.acl_enabled,
    defaultAllow: location.acl_default_allow,
    rules: resolveRules(ruleRows, links, groupUsers, devices),
    aliases,
    devices: addresses,
    now,
  };
}

async function loadAliases(db: Db, ids: number[]): Promise<Map<number, CompileAlias>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: number; kind: CompileAlias['kind']; destinations: string[]; ports: string[]; protocols: string[] }>(
    db,
    sql`select id, kind, destinations, ports, protocols from acl_aliases
         where parent_id is null and state = 'applied' and id = any(${sql.param(ids)}::int[])`,
  );
  return new Map(rows.map((r) => [r.id, { ...r, protocols: r.protocols as AclProtocol[] }]));
}

async function loadGroupUsers(db: Db, groupIds: number[]): Promise<Map<number, number[]>> {
  if (groupIds.length === 0) return new Map();
  const rows = await queryRows<{ group_id: number; user_id: number }>(
    db,
    sql`select group_id, user_id from group_members where group_id = any(${sql.param(groupIds)}::int[])`,
  );
  return groupBy(
    rows,
    (r) => r.group_id,
    (r) => r.user_id,
  );
}

export interface DeviceIndex {
  byUser: Map<number, number[]>;
  allUser: number[];
  network: number[];
}

const emptyDevices = (): DeviceIndex => ({ byUser: new Map(), allUser: [], network: [] });

/** User devices (all of them) and the location's network devices. */
async function loadDevices(db: Db, locationId: number, probes: readonly { id: number; userId: number | null }[]): Promise<DeviceIndex> {
  const rows = await queryRows<{ id: number; user_id: number | null }>(
    db,
    sql`select id, user_id from devices
         where (kind = 'user' and user_id is not null) or (kind = 'network' and location_id = ${locationId})
         order by id`,
  );
  const all = [...probes.map((p) => ({ id: p.id, user_id: p.userId })), ...rows];
  const users = all.filter((r) => r.user_id !== null);
  return {
    byUser: groupBy(
      users,
      (r) => r.user_id as number,
      (r) => r.id,
    ),
    allUser: users.map((r) => r.id),
    network: all.filter((r) => r.user_id === null).map((r) => r.id),
  };
}

/** Host addresses of the devices in the location (one row per address; grouped here). */
async function loadAddresses(db: Db, locationId: number): Promise<CompileDevice[]> {
  const rows = await queryRows<{ device_id: number; ip: string }>(
    db,
    sql`select device_id, host(ip) as ip from device_ips where location_id = ${locationId} order by device_id, ip`,
  );
  const out: { id: number; addresses: string[] }[] = [];
  for (const r of rows) {
    const last = out.at(-1);
    if (last?.id === r.device_id) last.addresses.push(r.ip);
    else out.push({ id: r.device_id, addresses: [r.ip] });
  }
  return out;
}

function groupBy<T, K, V>(rows: readonly T[], key: (row: T) => K, value: (row: T) => V): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(value(r));
    else out.set(k, [value(r)]);
  }
  return out;
}

/** Sorted, duplicate-free union of sorted id lists (one list is returned as it is: shared). */
function union(lists: readonly (readonly number[])[]): readonly number[] {
  let out: readonly number[] = [];
  for (const list of lists) out = out.length === 0 ? list : list.length === 0 ? out : mergeSorted(out, list);
  return out;
}

/** Linear merge of two ascending, duplicate-free lists. */
function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x < y) {
      out.push(x);
      i++;
    } else if (y < x) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
      j++;
    }
  }
  while (i < a.length) out.push(a[i++] as number);
  while (j < b.length) out.push(b[j++] as number);
  return out;
}

/**
 * Rule rows + their links → compiler rules with member device sets. Pure. The device list of a
 * group (or of all users) is built once and shared by every rule naming it.
 */
export function resolveRules(
  rows: readonly RuleRow[],
  links: readonly LinkRow[],
  groupUsers: ReadonlyMap<number, number[]>,
  devices: DeviceIndex,
): CompileRule[] {
  const linksByRule = groupBy(
    links,
    (l) => l.rule_id,
    (l) => l,
  );
  const groupDevices = new Map<number, readonly number[]>();
  const devicesOfGroup = (g: number) => {
    let list = groupDevices.get(g);
    if (!list) {
      list = union((groupUsers.get(g) ?? []).map((u) => devices.byUser.get(u) ?? []));
      groupDevices.set(g, list);
    }
    return list;
  };
  return rows.map((r) => {
    const own = linksByRule.get(r.id) ?? [];
    const side = (allow: boolean, allUsers: boolean, allNetwork: boolean): CompileSources => {
      if (allUsers && allNetwork) return { any: true, devices: [] };
      const lists: (readonly number[])[] = [];
      if (allUsers) lists.push(devices.allUser);
      if (allNetwork) lists.push(devices.network);
      for (const l of own) {
        if (l.kind === 'a' || l.allow !== allow) continue;
        if (l.kind === 'u') lists.push(devices.byUser.get(l.ref) ?? []);
        else if (l.kind === 'd') lists.push([l.ref]);
        else lists.push(devicesOfGroup(l.ref));
      }
      return { any: false, devices: union(lists) };
    };
    return {
      id: r.id,
      priority: r.priority,
      enabled: r.enabled,
      expires: r.expires === null ? null : new Date(r.expires),
      destinations: splitList(r.destinations),
      ports: splitList(r.ports),
      protocols: splitList(r.protocols) as AclProtocol[],
      aliasIds: own.filter((l) => l.kind === 'a').map((l) => l.ref),
      allowed: side(true, r.allow_all_users, r.allow_all_network_devices),
      denied: side(false, r.deny_all_users, r.deny_all_network_devices),
    };
  });
}
