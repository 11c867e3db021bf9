import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';

/** Attempt counters in fixed windows (rows of `auth_failures`, shared by every replica). */
export class RedemptionAttemptsRepo {
  constructor(private readonly db: Db) {}

  /** Adds one attempt to `key` and answers the attempts in its current window. */
  async count(key: string, windowSeconds: number): Promise<number> {
    const window = `${windowSeconds} seconds`;
    const result = await this.db.execute(sql`
      insert into auth_failures (key, failures, window_started_at) values (${key}, 1, now())
      on conflict (key) do update set
        failures = case when auth_failures.window_started_at < now() - ${window}::interval then 1 else auth_failures.failures + 1 end,
        window_started_at = case when auth_failures.window_started_at < now() - ${window}::interval then now() else auth_failures.window_started_at end
      returning failures`);
    const [row] = (result as unknown as { rows: { failures: number }[] }).rows;
    return row?.failures ?? 0;
  }
}
