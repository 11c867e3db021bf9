import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';

/**
 * Rule expiry reaching the gateways: the compiler drops a rule once `expires` ≤ now, but only a
 * change makes the feed recompile it. One sweep marks `fw_rule` for every applied rule whose
 * expiry fell in (swept_until, now] (migration 0024's palisade_gw_mark_rules, in the locations
 * where it applies) and moves `swept_until` to now, in one transaction. The row lock makes one
 * replica sweep at a time (the others skip); a sweep after downtime catches up on everything that
 * expired meanwhile. Returns the ids of the rules marked, or undefined when another replica holds
 * the sweep.
 */
export async function sweepExpiredRules(db: Db): Promise<number[] | undefined> {
  return db.transaction(async (raw) => {
    const t = raw as unknown as Db;
    await t.execute(sql`insert into gateway_acl_expiry (id, swept_until) values (1, now()) on conflict do nothing`);
    const [cursor] = await queryRows<{ swept_until: Date }>(
      t,
      sql`select swept_until from gateway_acl_expiry where id = 1 for update skip locked`,
    );
    if (!cursor) return undefined;
    const rows = await queryRows<{ id: number }>(
      t,
      sql`select r.id from acl_rules r, gateway_acl_expiry e
           where e.id = 1 and r.state = 'applied' and r.expires > e.swept_until and r.expires <= now()
           order by r.id`,
    );
    const ids = rows.map((r) => r.id);
    if (ids.length > 0) await t.execute(sql`select palisade_gw_mark_rules(${sql.param(ids)}::int[])`);
    await t.execute(sql`update gateway_acl_expiry set swept_until = greatest(swept_until, now()) where id = 1`);
    return ids;
  });
}
