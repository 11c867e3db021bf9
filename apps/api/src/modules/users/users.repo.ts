import type { UserListQuery } from '@palisade/contracts';
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { groupMembers, groups, users } from '#src/db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export interface UserRecord extends UserRow {
  groups: string[];
  isAdmin: boolean;
}

const adminMembership = (userId: SQL | typeof users.id) => sql`exists (
  select 1 from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
  where gm.user_id = ${userId} and g.is_admin)`;

const SORTS = {
  username: sql`lower(${users.username})`,
  last_name: sql`lower(${users.lastName})`,
  email: sql`lower(${users.email})`,
  created_at: sql`${users.createdAt}`,
} as const;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export class UsersRepo {
  constructor(private readonly db: Db) {}

  async findByUsername(username: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1);
    return row;
  }

  /** Users whose name matches one of `usernames`, case-insensitively, in one query. */
  async findManyByUsername(usernames: string[]): Promise<Pick<UserRow, 'id' | 'username'>[]> {
    if (usernames.length === 0) return [];
    const lowered = [...new Set(usernames.map((u) => u.toLowerCase()))];
    return this.db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(inArray(sql`lower(${users.username})`, lowered));
  }

  /** Login accepts the username or the email address. */
  async findByLogin(login: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(or(sql`lower(${users.username}) = lower(${login})`, sql`lower(${users.email}) = lower(${login})`))
      .orderBy(sql`lower(${users.username}) = lower(${login}) desc`)
      .limit(1);
    return row;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
    return row;
  }

  async findById(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async withGroups(rows: UserRow[]): Promise<UserRecord[]> {
    if (rows.length === 0) return [];
    const memberships = await this.db
      .select({ userId: groupMembers.userId, name: groups.name, isAdmin: groups.isAdmin })
      .from(groupMembers)
      .innerJoin(groups, eq(groups.id, groupMembers.groupId))
      .where(
        inArray(
          groupMembers.userId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(groups.name));
    return rows.map((row) => {
      const mine = memberships.filter((m) => m.userId === row.id);
      return { ...row, groups: mine.map((m) => m.name), isAdmin: mine.some((m) => m.isAdmin) };
    });
  }

  async list(query: UserListQuery): Promise<{ rows: UserRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (query.search) {
      const pattern = `%${escapeLike(query.search.toLowerCase())}%`;
      conditions.push(sql`(lower(${users.username}) like ${pattern} or lower(${users.firstName}) like ${pattern}
        or lower(${users.lastName}) like ${pattern} or lower(${users.email}) like ${pattern}
        or lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern})`);
    }
    if (query.filter === 'admins') conditions.push(adminMembership(users.id));
    if (query.filter === 'users') conditions.push(sql`not ${adminMembership(users.id)}`);
    const where = conditions.length > 0 ? and(...conditions) : undefined;
    const descending = query.sort.startsWith('-');
    const column = SORTS[query.sort.replace(/^-/, '') as keyof typeof SORTS];
    // The page walks an index in sort order and stops after per_page rows; the total is a
    // separate count. count(*) over () would make every page sort all matching users.
    const [rows, counted] = await Promise.all([
      this.db
        .select()
        .from(users)
        .where(where)
        .orderBy(descending ? desc(column) : asc(column), asc(users.id))
        .limit(query.per_page)
        .offset((query.page - 1) * query.per_page),
      this.db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(users)
        .where(where),
    ]);
    return { rows, total: counted[0]?.n ?? 0 };
  }

  async insert(values: typeof users.$inferInsert): Promise<UserRow> {
    const [row] = await this.db.insert(users).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, values: Partial<typeof users.$inferInsert>): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(users).where(eq(users.id, id));
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(users);
    return row?.n ?? 0;
  }

  /** Active users that are members of at least one admin group. */
  async countActiveAdmins(excludingUserId?: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(users)
      .where(
        and(
          eq(users.isActive, true),
          adminMembership(users.id),
          excludingUserId === undefined ? undefined : sql`${users.id} <> ${excludingUserId}`,
        ),
      );
    return row?.n ?? 0;
  }

  /** Serialises changes that could remove the last admin (held until the transaction ends). */
  async lockAdminInvariant(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(7243002)`);
  }
}
