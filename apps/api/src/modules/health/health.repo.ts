import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '#src/db/client.js';
import { ADVISORY_LOCKS } from '#src/db/advisory-locks.js';
import { queryRows } from '#src/db/rows.js';

export class HealthRepo {
  constructor(private readonly database: DatabaseHandle) {}

  async ping(): Promise<void> {
    await this.database.db.execute(sql`select 1`);
  }

  /**
   * Whether some process holds the migrations lock (db/migrate.ts) right now, i.e. is migrating
   * this database. PostgreSQL only: the embedded database migrates inside this process before it
   * listens, so nobody can ask it meanwhile (there it is a plain database check). Rejects when
   * the database does not answer.
   */
  async migrationsRunning(): Promise<boolean> {
    if (this.database.kind !== 'postgres') {
      await this.ping();
      return false;
    }
    // A bigint advisory key below 2^32 shows up as classid 0, objid = key, objsubid 1.
    const [row] = await queryRows<{ held: boolean }>(
      this.database.db,
      sql`select exists(select 1 from pg_locks where locktype = 'advisory' and granted
            and database = (select oid from pg_database where datname = current_database())
            and classid = 0 and objid = ${ADVISORY_LOCKS.migrations} and objsubid = 1) as held`,
    );
    return row?.held === true;
  }
}
