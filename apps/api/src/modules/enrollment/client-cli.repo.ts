import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { authFailures, cliTokens, groupMembers, groups, userTokens } from '#src/db/schema/index.js';

export interface ConsumedCliToken {
  id: number;
  device_id: number | null;
  spec: { name: string; location_id: number; assigned_ips?: string[]; description?: string };
  created_by: string;
}

export interface FailurePolicy {
  limit: number;
  windowSeconds: number;
  lockSeconds: number;
}

/** CLI enrollment tokens as the client API redeems them, and its failure counter per client address. */
export class ClientCliRepo {
  constructor(private readonly db: Db) {}

  /**
   * Spends a token in one statement (two concurrent redemptions cannot both succeed); undefined
   * when it is unknown, used or expired, without telling which. Inside the caller's transaction,
   * a later failure rolls the spending back.
   */
  async consume(tokenHash: string): Promise<ConsumedCliToken | undefined> {
    const [row] = await queryRows<ConsumedCliToken>(
      this.db,
      sql`update ${cliTokens} set used_at = now()
           where token_hash = ${tokenHash} and used_at is null and expires_at > now()
           returning id, device_id, spec, created_by`,
    );
    return row;
  }

  /** Spends a desktop-activation token like `consume` (unknown, used, expired alike); its user. */
  async consumeDesktop(tokenHash: string): Promise<{ user_id: number } | undefined> {
    const [row] = await queryRows<{ user_id: number }>(
      this.db,
      sql`update ${userTokens} set used_at = now()
           where token_hash = ${tokenHash} and purpose = 'desktop' and used_at is null and expires_at > now()
           returning user_id`,
    );
    return row;
  }

  async isAdmin(userId: number): Promise<boolean> {
    const rows = await queryRows<{ one: number }>(
      this.db,
      sql`select 1 as one from ${groupMembers} gm join ${groups} g on g.id = gm.group_id where gm.user_id = ${userId} and g.is_admin`,
    );
    return rows.length > 0;
  }

  /** Whether the key is locked out now (the login lockout's table, `auth_failures`). */
  async locked(key: string): Promise<boolean> {
    const rows = await queryRows<{ one: number }>(
      this.db,
      sql`select 1 as one from ${authFailures} where key = ${key} and locked_until > now()`,
    );
    return rows.length > 0;
  }

  /** Counts one failure against the key (a new window once the old one passed; a lock at the limit). */
  async countFailure(key: string, policy: FailurePolicy): Promise<void> {
    const window = `${policy.windowSeconds} seconds`;
    const lock = `${policy.lockSeconds} seconds`;
    await this.db.execute(sql`
      insert into ${authFailures} as f (key, failures, window_started_at, locked_until)
      values (${key}, 1, now(), case when 1 >= ${policy.limit}::int then now() + ${lock}::interval end)
      on conflict (key) do update set
        failures = case when f.window_started_at < now() - ${window}::interval then 1 else f.failures + 1 end,
        window_started_at = case when f.window_started_at < now() - ${window}::interval then now() else f.window_started_at end,
        locked_until = case
          when (case when f.window_started_at < now() - ${window}::interval then 1 else f.failures + 1 end) >= ${policy.limit}::int
          then now() + ${lock}::interval
          else f.locked_until end`);
  }
}
