import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { groupMembers, groups, users } from '#src/db/schema/index.js';
import type { PalisadeSide, PalisadeUser } from './sync-model.js';

/** Reads Palisade's side of an LDAP sync: every account and group, with memberships (three queries). */
export class SyncRepo {
  constructor(private readonly db: Db) {}

  async readPalisadeSide(): Promise<PalisadeSide> {
    const rows = await this.db
      .select({
        id: users.id,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        phone: users.phone,
        ldapDn: users.ldapDn,
        isActive: users.isActive,
      })
      .from(users)
      .orderBy(asc(users.id));
    const memberships = await this.db
      .select({ userId: groupMembers.userId, name: groups.name })
      .from(groupMembers)
      .innerJoin(groups, eq(groups.id, groupMembers.groupId));
    const byUser = new Map<number, string[]>();
    for (const m of memberships) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), m.name]);
    const list: PalisadeUser[] = rows.map((r) => ({ ...r, groups: byUser.get(r.id) ?? [] }));
    const groupRows = await this.db.select({ name: groups.name, isAdmin: groups.isAdmin }).from(groups).orderBy(asc(groups.name));
    return { users: list, groups: groupRows };
  }

  /** Takes the sync's session lock on this connection; false when another run holds it. */
  async tryLock(key: number): Promise<boolean> {
    const [row] = await queryRows<{ ok: boolean }>(this.db, sql`select pg_try_advisory_lock(${key}) as ok`);
    return row?.ok === true;
  }

  async unlock(key: number): Promise<void> {
    await this.db.execute(sql`select pg_advisory_unlock(${key})`);
  }
}
