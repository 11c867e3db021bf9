import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { groupMembers, groups, sessions, users } from '#src/db/schema/index.js';

export type SessionState = (typeof sessions.$inferSelect)['state'];

export interface SessionActor {
  sessionId: string;
  state: SessionState;
  lastSeenAt: Date;
  userId: number;
  username: string;
  isAdmin: boolean;
}

export class SessionsRepo {
  constructor(private readonly db: Db) {}

  async insert(values: typeof sessions.$inferInsert): Promise<void> {
    await this.db.insert(sessions).values(values);
  }

  /** The session with its (active) user and admin flag, in one round trip. */
  async findLive(id: string): Promise<SessionActor | undefined> {
    const [row] = await this.db
      .select({
        sessionId: sessions.id,
        state: sessions.state,
        lastSeenAt: sessions.lastSeenAt,
        userId: users.id,
        username: users.username,
        isAdmin: sql<boolean>`exists (select 1 from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
          where gm.user_id = ${users.id} and g.is_admin)`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, id), gt(sessions.expiresAt, sql`now()`), eq(users.isActive, true)))
      .limit(1);
    return row;
  }

  async touch(id: string, expiresAt: Date): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt: new Date(), expiresAt }).where(eq(sessions.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, id));
  }

  async deleteForUser(userId: number, exceptSessionId?: string): Promise<void> {
    await this.db.delete(sessions).where(and(eq(sessions.userId, userId), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined));
  }

  async deleteExpired(): Promise<number> {
    const rows = await this.db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`)).returning({ id: sessions.id });
    return rows.length;
  }
}
