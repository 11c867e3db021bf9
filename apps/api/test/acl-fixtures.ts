import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';

/**
 * ACL rows written straight to the tables (the compiler and the gateway feed read only applied
 * rows; the ACL routes are tested on their own). `state: 'applied'` is a deployed rule.
 */
export interface RuleFixture {
  name?: string;
  state?: 'new' | 'applied';
  priority?: number;
  enabled?: boolean;
  expires?: Date | null;
  allLocations?: boolean;
  locations?: number[];
  allowAllUsers?: boolean;
  allowUsers?: number[];
  denyUsers?: number[];
  allowGroups?: number[];
  allowDevices?: number[];
  destinations?: string[];
  ports?: string[];
  protocols?: string[];
  aliases?: number[];
}

const rows = async <T>(db: Db, query: ReturnType<typeof sql>) => (await db.execute(query)) as unknown as { rows: T[] };

export async function insertRule(db: Db, f: RuleFixture): Promise<number> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const { rows: inserted } = await rows<{ id: number }>(
      tx,
      sql`insert into acl_rules (state, name, priority, enabled, expires, all_locations, allow_all_users, destinations, ports, protocols)
          values ('new', ${f.name ?? 'rule'}, ${f.priority ?? 100}, ${f.enabled ?? true}, ${f.expires?.toISOString() ?? null}::timestamptz,
                  ${f.allLocations ?? false}, ${f.allowAllUsers ?? false}, ${sql.param(f.destinations ?? [])}::text[],
                  ${sql.param(f.ports ?? [])}::text[], ${sql.param(f.protocols ?? [])}::text[])
          returning id`,
    );
    const id = inserted[0]?.id as number;
    for (const l of f.locations ?? []) await tx.execute(sql`insert into acl_rule_locations values (${id}, ${l})`);
    for (const u of f.allowUsers ?? []) await tx.execute(sql`insert into acl_rule_users values (${id}, ${u}, true)`);
    for (const u of f.denyUsers ?? []) await tx.execute(sql`insert into acl_rule_users values (${id}, ${u}, false)`);
    for (const g of f.allowGroups ?? []) await tx.execute(sql`insert into acl_rule_groups values (${id}, ${g}, true)`);
    for (const d of f.allowDevices ?? []) await tx.execute(sql`insert into acl_rule_devices values (${id}, ${d}, true)`);
    for (const a of f.aliases ?? []) await tx.execute(sql`insert into acl_rule_aliases values (${id}, ${a})`);
    // Deployed the way the API deploys a new rule: new → applied, links already in place.
    if ((f.state ?? 'applied') === 'applied') await tx.execute(sql`update acl_rules set state = 'applied' where id = ${id}`);
    return id;
  });
}

export async function insertAlias(
  db: Db,
  f: { kind: 'destination' | 'component'; destinations?: string[]; ports?: string[]; protocols?: string[] },
): Promise<number> {
  const { rows: inserted } = await rows<{ id: number }>(
    db,
    sql`insert into acl_aliases (state, name, kind, destinations, ports, protocols)
        values ('applied', 'alias', ${f.kind}, ${sql.param(f.destinations ?? [])}::text[], ${sql.param(f.ports ?? [])}::text[],
                ${sql.param(f.protocols ?? [])}::text[])
        returning id`,
  );
  return inserted[0]?.id as number;
}

export async function userIdOf(db: Db, username: string): Promise<number> {
  const { rows: found } = await rows<{ id: number }>(db, sql`select id from users where username = ${username}`);
  return found[0]?.id as number;
}
