import type { AclAliasState, AclRuleRef } from '@palisade/contracts';
import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { aclAliases, aclRuleAliases, aclRules } from '#src/db/schema/index.js';

export type AliasRow = typeof aclAliases.$inferSelect;
export type AliasContent = Pick<AliasRow, 'name' | 'kind' | 'destinations' | 'ports' | 'protocols'>;

/** ACL aliases. A pending change of a deployed alias is a child row (`parent_id`, state `changed`). */
export class AclAliasesRepo {
  constructor(private readonly db: Db) {}

  async list(ids?: readonly number[]): Promise<AliasRow[]> {
    if (ids && ids.length === 0) return [];
    const base = this.db.select().from(aclAliases);
    return (ids ? base.where(inArray(aclAliases.id, [...ids])) : base).orderBy(asc(aclAliases.id));
  }

  async find(id: number): Promise<AliasRow | undefined> {
    const [row] = await this.list([id]);
    return row;
  }

  async lock(ids: readonly number[]): Promise<AliasRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(aclAliases)
      .where(inArray(aclAliases.id, [...ids]))
      .orderBy(asc(aclAliases.id))
      .for('update');
  }

  async childOf(parentId: number): Promise<AliasRow | undefined> {
    const [row] = await this.db.select().from(aclAliases).where(eq(aclAliases.parentId, parentId)).for('update');
    return row;
  }

  async insert(parentId: number | null, state: AclAliasState, content: AliasContent): Promise<number> {
    const [row] = await this.db
      .insert(aclAliases)
      .values({ parentId, state, ...content })
      .returning({ id: aclAliases.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async update(id: number, content: AliasContent): Promise<void> {
    await this.db
      .update(aclAliases)
      .set({ ...content, updatedAt: new Date() })
      .where(eq(aclAliases.id, id));
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(aclAliases).where(eq(aclAliases.id, id));
  }

  /**
   * For each rule (any state) using the alias: its own ports and protocols and those of its other
   * component aliases, i.e. its manual selector without this alias.
   */
  async selectorsWithout(aliasId: number): Promise<{ id: number; name: string; ports: string[]; protocols: string[] }[]> {
    const rules = await this.db
      .select({ id: aclRules.id, name: aclRules.name, ports: aclRules.ports, protocols: aclRules.protocols })
      .from(aclRuleAliases)
      .innerJoin(aclRules, eq(aclRules.id, aclRuleAliases.ruleId))
      .where(eq(aclRuleAliases.aliasId, aliasId))
      .orderBy(asc(aclRules.id));
    if (rules.length === 0) return [];
    const others = await this.db
      .select({ ruleId: aclRuleAliases.ruleId, ports: aclAliases.ports, protocols: aclAliases.protocols })
      .from(aclRuleAliases)
      .innerJoin(aclAliases, eq(aclAliases.id, aclRuleAliases.aliasId))
      .where(
        and(
          inArray(
            aclRuleAliases.ruleId,
            rules.map((r) => r.id),
          ),
          ne(aclRuleAliases.aliasId, aliasId),
          eq(aclAliases.kind, 'component'),
        ),
      );
    return rules.map((r) => {
      const mine = others.filter((o) => o.ruleId === r.id);
      return {
        id: r.id,
        name: r.name,
        ports: [...r.ports, ...mine.flatMap((o) => o.ports)],
        protocols: [...r.protocols, ...mine.flatMap((o) => o.protocols)],
      };
    });
  }

  /**
   * Rules using the given (deployed) aliases, by alias id: only deployed rules (the version the
   * gateways run) when `deployedOnly`, else every rule row, pending ones included.
   */
  async rulesUsing(aliasIds: readonly number[], deployedOnly: boolean): Promise<Map<number, AclRuleRef[]>> {
    const out = new Map<number, AclRuleRef[]>();
    if (aliasIds.length === 0) return out;
    const rows = await this.db
      .select({ aliasId: aclRuleAliases.aliasId, id: aclRules.id, name: aclRules.name })
      .from(aclRuleAliases)
      .innerJoin(aclRules, eq(aclRules.id, aclRuleAliases.ruleId))
      .where(
        and(
          inArray(aclRuleAliases.aliasId, [...aliasIds]),
          ...(deployedOnly ? [eq(aclRules.state, 'applied'), isNull(aclRules.parentId)] : []),
        ),
      )
      .orderBy(asc(aclRules.id));
    for (const r of rows) {
      const list = out.get(r.aliasId) ?? [];
      list.push({ id: r.id, name: r.name });
      out.set(r.aliasId, list);
    }
    return out;
  }
}
