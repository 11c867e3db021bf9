import type { AclProtocol, AclRuleState } from '@palisade/contracts';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import {
  aclRuleAliases,
  aclRuleDevices,
  aclRuleGroups,
  aclRuleLocations,
  aclRules,
  aclRuleUsers,
  groups,
  users,
} from '#src/db/schema/index.js';

/** A member named by a rule: a user, a group or a network device, on the allowed or denied side. */
export interface RuleMember {
  id: number;
  /** Username or group name (empty for network devices). */
  name: string;
  allow: boolean;
}

/** Everything a rule says, as stored: the row's columns and its links. */
export interface RuleContent {
  name: string;
  priority: number;
  enabled: boolean;
  expires: Date | null;
  allLocations: boolean;
  allowAllUsers: boolean;
  denyAllUsers: boolean;
  allowAllNetworkDevices: boolean;
  denyAllNetworkDevices: boolean;
  destinations: string[];
  ports: string[];
  protocols: AclProtocol[];
  locations: number[];
  users: RuleMember[];
  groups: RuleMember[];
  devices: RuleMember[];
  aliases: number[];
}

export interface RuleRecord {
  id: number;
  parentId: number | null;
  state: AclRuleState;
  createdAt: Date;
  updatedAt: Date;
  content: RuleContent;
}

type RuleRow = typeof aclRules.$inferSelect;

const columnsOf = (c: RuleContent) => ({
  name: c.name,
  priority: c.priority,
  enabled: c.enabled,
  expires: c.expires,
  allLocations: c.allLocations,
  allowAllUsers: c.allowAllUsers,
  denyAllUsers: c.denyAllUsers,
  allowAllNetworkDevices: c.allowAllNetworkDevices,
  denyAllNetworkDevices: c.denyAllNetworkDevices,
  destinations: c.destinations,
  ports: c.ports,
  protocols: c.protocols,
});

/** ACL rules and their link tables. Pending changes are child rows (`parent_id`), see docs/acl.md. */
export class AclRulesRepo {
  constructor(private readonly db: Db) {}

  /** Every rule (deployed and pending), or the given ones, in id order. */
  async load(ids?: readonly number[]): Promise<RuleRecord[]> {
    if (ids && ids.length === 0) return [];
    const base = this.db.select().from(aclRules);
    const rows = await (ids ? base.where(inArray(aclRules.id, [...ids])) : base).orderBy(asc(aclRules.id));
    return this.#withLinks(rows, ids === undefined);
  }

  async find(id: number): Promise<RuleRecord | undefined> {
    const [record] = await this.load([id]);
    return record;
  }

  /** Locks rows for the rest of the transaction (changes and deploys of the same rule serialize). */
  async lock(ids: readonly number[]): Promise<RuleRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(aclRules)
      .where(inArray(aclRules.id, [...ids]))
      .orderBy(asc(aclRules.id))
      .for('update');
  }

  async childOf(parentId: number): Promise<RuleRow | undefined> {
    const [row] = await this.db.select().from(aclRules).where(eq(aclRules.parentId, parentId)).for('update');
    return row;
  }

  async insert(parentId: number | null, state: AclRuleState, content: RuleContent): Promise<number> {
    const [row] = await this.db
      .insert(aclRules)
      .values({ parentId, state, ...columnsOf(content) })
      .returning({ id: aclRules.id });
    if (!row) throw new Error('insert returned no row');
    await this.#insertLinks(row.id, content);
    return row.id;
  }

  /** Replaces a rule's columns and links; `state` when given. */
  async update(id: number, content: RuleContent, state?: AclRuleState): Promise<void> {
    await this.db
      .update(aclRules)
      .set({ ...columnsOf(content), ...(state ? { state } : {}), updatedAt: new Date() })
      .where(eq(aclRules.id, id));
    // One statement at a time: a transaction runs on one connection.
    await this.db.delete(aclRuleLocations).where(eq(aclRuleLocations.ruleId, id));
    await this.db.delete(aclRuleUsers).where(eq(aclRuleUsers.ruleId, id));
    await this.db.delete(aclRuleGroups).where(eq(aclRuleGroups.ruleId, id));
    await this.db.delete(aclRuleDevices).where(eq(aclRuleDevices.ruleId, id));
    await this.db.delete(aclRuleAliases).where(eq(aclRuleAliases.ruleId, id));
    await this.#insertLinks(id, content);
  }

  async setState(id: number, state: AclRuleState): Promise<void> {
    await this.db.update(aclRules).set({ state, updatedAt: new Date() }).where(eq(aclRules.id, id));
  }

  /** Deletes a rule with its links and its pending child (foreign keys cascade). */
  async delete(id: number): Promise<void> {
    await this.db.delete(aclRules).where(eq(aclRules.id, id));
  }

  async #insertLinks(ruleId: number, c: RuleContent): Promise<void> {
    if (c.locations.length > 0) await this.db.insert(aclRuleLocations).values(c.locations.map((locationId) => ({ ruleId, locationId })));
    if (c.users.length > 0) await this.db.insert(aclRuleUsers).values(c.users.map((m) => ({ ruleId, userId: m.id, allow: m.allow })));
    if (c.groups.length > 0) await this.db.insert(aclRuleGroups).values(c.groups.map((m) => ({ ruleId, groupId: m.id, allow: m.allow })));
    if (c.devices.length > 0)
      await this.db.insert(aclRuleDevices).values(c.devices.map((m) => ({ ruleId, deviceId: m.id, allow: m.allow })));
    if (c.aliases.length > 0) await this.db.insert(aclRuleAliases).values(c.aliases.map((aliasId) => ({ ruleId, aliasId })));
  }

  /** `all`: the rows are every rule, so the links are read whole (no id list of unbounded length). */
  async #withLinks(rows: RuleRow[], all: boolean): Promise<RuleRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const locationLinks = await this.db
      .select()
      .from(aclRuleLocations)
      .where(all ? undefined : inArray(aclRuleLocations.ruleId, ids));
    const userLinks = await this.db
      .select({ ruleId: aclRuleUsers.ruleId, id: aclRuleUsers.userId, name: users.username, allow: aclRuleUsers.allow })
      .from(aclRuleUsers)
      .innerJoin(users, eq(users.id, aclRuleUsers.userId))
      .where(all ? undefined : inArray(aclRuleUsers.ruleId, ids));
    const groupLinks = await this.db
      .select({ ruleId: aclRuleGroups.ruleId, id: aclRuleGroups.groupId, name: groups.name, allow: aclRuleGroups.allow })
      .from(aclRuleGroups)
      .innerJoin(groups, eq(groups.id, aclRuleGroups.groupId))
      .where(all ? undefined : inArray(aclRuleGroups.ruleId, ids));
    const deviceLinks = await this.db
      .select()
      .from(aclRuleDevices)
      .where(all ? undefined : inArray(aclRuleDevices.ruleId, ids));
    const aliasLinks = await this.db
      .select()
      .from(aclRuleAliases)
      .where(all ? undefined : inArray(aclRuleAliases.ruleId, ids));
    const byRule = new Map<number, RuleRecord>();
    const records = rows.map((r): RuleRecord => {
      const record: RuleRecord = {
        id: r.id,
        parentId: r.parentId,
        state: r.state,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        content: {
          name: r.name,
          priority: r.priority,
          enabled: r.enabled,
          expires: r.expires,
          allLocations: r.allLocations,
          allowAllUsers: r.allowAllUsers,
          denyAllUsers: r.denyAllUsers,
          allowAllNetworkDevices: r.allowAllNetworkDevices,
          denyAllNetworkDevices: r.denyAllNetworkDevices,
          destinations: r.destinations,
          ports: r.ports,
          protocols: r.protocols as AclProtocol[],
          locations: [],
          users: [],
          groups: [],
          devices: [],
          aliases: [],
        },
      };
      byRule.set(r.id, record);
      return record;
    });
    const at = (ruleId: number) => byRule.get(ruleId)?.content;
    for (const l of locationLinks) at(l.ruleId)?.locations.push(l.locationId);
    for (const l of userLinks) at(l.ruleId)?.users.push({ id: l.id, name: l.name, allow: l.allow });
    for (const l of groupLinks) at(l.ruleId)?.groups.push({ id: l.id, name: l.name, allow: l.allow });
    for (const l of deviceLinks) at(l.ruleId)?.devices.push({ id: l.deviceId, name: '', allow: l.allow });
    for (const l of aliasLinks) at(l.ruleId)?.aliases.push(l.aliasId);
    for (const record of records) sortLinks(record.content);
    return records;
  }
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

function sortLinks(c: RuleContent): void {
  c.locations.sort((a, b) => a - b);
  c.aliases.sort((a, b) => a - b);
  c.users.sort(byId);
  c.groups.sort(byId);
  c.devices.sort(byId);
}
