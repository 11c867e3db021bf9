import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';

/** The rate-limit counters (`auth_failures`) as a whole: the purge of spent rows. */
export class AuthFailuresRepo {
  constructor(private readonly db: Db) {}

  /**
   * Deletes up to `batch` rows whose window began more than `windowSeconds` ago and that hold no
   * lock still running; answers how many. The conditions sit on the deleted row itself, so a row a
   * concurrent attempt has just counted again (a new window) is re-checked and kept.
   */
  async purgeSpent(windowSeconds: number, batch: number): Promise<number> {
    const spent = sql`window_started_at < now() - ${`${windowSeconds} seconds`}::interval
      and (locked_until is null or locked_until <= now())`;
    const rows = await queryRows<{ key: string }>(
      this.db,
      sql`delete from auth_failures
        where key in (select key from auth_failures where ${spent} limit ${batch}) and ${spent}
        returning key`,
    );
    return rows.length;
  }
}
