import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { type LoadOptions, loadCompileInput } from './compiler/load.repo.js';
import type { CompileInput } from './compiler/types.js';

/** Reads of the access check (check.service.ts), in one read-only REPEATABLE READ transaction. */
export class AclCheckRepo {
  constructor(private readonly db: Db) {}

  consistent<T>(fn: (repo: AclCheckRepo) => Promise<T>): Promise<T> {
    return this.db.transaction((t) => fn(new AclCheckRepo(t as unknown as Db)), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    });
  }

  async locationExists(id: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(this.db, sql`select id from locations where id = ${id}`);
    return rows.length > 0;
  }

  async userExists(id: number): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(this.db, sql`select id from users where id = ${id}`);
    return rows.length > 0;
  }

  async userDevices(userId: number): Promise<number[]> {
    const rows = await queryRows<{ id: number }>(this.db, sql`select id from devices where user_id = ${userId} order by id`);
    return rows.map((r) => r.id);
  }

  async device(id: number): Promise<{ kind: 'user' | 'network'; userId: number | null } | undefined> {
    const [row] = await queryRows<{ kind: 'user' | 'network'; user_id: number | null }>(
      this.db,
      sql`select kind, user_id from devices where id = ${id}`,
    );
    return row && { kind: row.kind, userId: row.user_id };
  }

  async ruleName(id: number): Promise<string> {
    const [row] = await queryRows<{ name: string }>(this.db, sql`select name from acl_rules where id = ${id}`);
    return row?.name ?? '';
  }

  compileInput(locationId: number, now: Date, options: LoadOptions): Promise<CompileInput | undefined> {
    return loadCompileInput(this.db, locationId, now, options);
  }
}
