import type { AclAliasState, AclRuleRef } from '@palisade/contracts';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
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
