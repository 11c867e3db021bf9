import { inArray, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { authFailures } from '#src/db/schema/index.js';

export interface FailurePolicy {
  /** Failures within the window that lock the key. */
  limit: number;
  windowSeconds: number;
  lockSeconds: number;
}

export class AuthFailuresRepo {
  constructor(private readonly db: Db) {}

  /** Keys among `keys` that are locked right now. */
  async lockedKeys(keys: string[]): Promise<string[]> {
    const rows = await this.db
      .select({ key: authFailures.key })
      .from(authFailures)
      .where(sql`${inArray(authFailures.key, keys)} and ${authFailures.lockedUntil} > now()`);
    return rows.map((r) => r.key);
  }

  /**
   * Counts one failure atomically; starts a new window when the old one has passed. Returns the
   * count in the current window, this failure included.
   */
  async recordFailure(key: string, policy: FailurePolicy): Promise<number> {
    const window = `${policy.windowSeconds} seconds`;
    const lock = `${policy.lockSeconds} seconds`;
    const result = await this.db.execute(sql`
      insert into ${authFailures} (key, failures, window_started_at, locked_until)
      values (${key}, 1, now(), case when 1 >= ${policy.limit} then now() + ${lock}::interval else null end)
      on conflict (key) do update set
        failures = case when ${authFailures.windowStartedAt} < now() - ${window}::interval then 1 else ${authFailures.failures} + 1 end,
        window_started_at = case when ${authFailures.windowStartedAt} < now() - ${window}::interval then now() else ${authFailures.windowStartedAt} end,
        locked_until = case
          when (case when ${authFailures.windowStartedAt} < now() - ${window}::interval then 1 else ${authFailures.failures} + 1 end) >= ${policy.limit}
          then now() + ${lock}::interval
          else ${authFailures.lockedUntil} end
      returning ${authFailures.failures} as failures`);
    const [row] = (result as unknown as { rows: { failures: number }[] }).rows;
    return Number(row?.failures ?? 0);
  }

  /** Takes back one counted attempt (a login that succeeded); lifts a lock it may have set. */
  async forgive(key: string, policy: FailurePolicy): Promise<void> {
    await this.db.execute(sql`
      update ${authFailures} set
        failures = greatest(${authFailures.failures} - 1, 0),
        locked_until = case when ${authFailures.failures} - 1 < ${policy.limit} then null else ${authFailures.lockedUntil} end
      where ${authFailures.key} = ${key}`);
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(authFailures).where(sql`${authFailures.key} = ${key}`);
  }
}
