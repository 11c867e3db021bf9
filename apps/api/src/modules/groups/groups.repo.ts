import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { groupMembers, groups, users } from '#src/db/schema/index.js';

export type GroupRow = typeof groups.$inferSelect;
export interface GroupRecord extends GroupRow {
  members: string[];
}

export class GroupsRepo {
  constructor(private readonly db: Db) {}

  async list(): Promise<GroupRecord[]> {
    const rows = await this.db
      .select()
      .from(groups)
      .orderBy(asc(sql`lower(${groups.name})`));
    return this.withMembers(rows);
  }

  async findByName(name: string): Promise<GroupRow | undefined> {
    const [row] = await this.db.select().from(groups).where(sql`lower(${groups.name}) = lower(${name})`).limit(1);
    return row;
  }

  async findManyByName(names: string[]): Promise<GroupRow[]> {
    if (names.length === 0) return [];
    const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
    return this.db
      .select()
      .from(groups)
      .where(inArray(sql`lower(${groups.name})`, lowered));
  }

  async withMembers(rows: GroupRow[]): Promise<GroupRecord[]> {
    if (rows.length === 0) return [];
    const members = await this.db
      .select({ groupId: groupMembers.groupId, username: users.username })
      .from(groupMembers)
      .innerJoin(users, eq(users.id, groupMembers.userId))
      .where(
        inArray(
          groupMembers.groupId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(sql`lower(${users.username})`));
    return rows.map((row) => ({ ...row, members: members.filter((m) => m.groupId === row.id).map((m) => m.username) }));
  }

  async insert(name: string, isAdmin: boolean): Promise<GroupRow> {
    const [row] = await this.db.insert(groups).values({ name, isAdmin }).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, values: { name?: string; isAdmin?: boolean }): Promise<void> {
    await this.db.update(groups).set(values).where(eq(groups.id, id));
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(groups).where(eq(groups.id, id));
  }

  /** Adds the pairs that are not members yet; returns those it added. */
  async addMembers(pairs: { groupId: number; userId: number }[]): Promise<{ groupId: number; userId: number }[]> {
    if (pairs.length === 0) return [];
    return this.db
      .insert(groupMembers)
      .values(pairs)
      .onConflictDoNothing()
      .returning({ groupId: groupMembers.groupId, userId: groupMembers.userId });
  }

  async removeMember(groupId: number, userId: number): Promise<boolean> {
    const removed = await this.db
      .delete(groupMembers)
      .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
      .returning({ userId: groupMembers.userId });
    return removed.length > 0;
  }

  async replaceMembers(groupId: number, userIds: number[]): Promise<void> {
    await this.db.delete(groupMembers).where(eq(groupMembers.groupId, groupId));
    await this.addMembers(userIds.map((userId) => ({ groupId, userId })));
  }

  async setUserGroups(userId: number, groupIds: number[]): Promise<void> {
    await this.db.delete(groupMembers).where(eq(groupMembers.userId, userId));
    await this.addMembers(groupIds.map((groupId) => ({ groupId, userId })));
  }
}
