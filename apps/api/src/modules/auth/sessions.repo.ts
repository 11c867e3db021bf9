import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { preparedRows } from '#src/db/rows.js';
import { groupMembers, groups, sessions, users } from '#src/db/schema/index.js';

export type SessionState = (typeof sessions.$inferSelect)['state'];

export interface SessionActor {
  sessionId: string;
  state: SessionState;
  /** The sign-in passed a second factor (the MFA step), not only the password. */
  mfaPassed: boolean;
  lastSeenAt: Date;
  userId: number;
  username: string;
  isAdmin: boolean;
}

const findLiveSession = preparedRows<
  {
    session_id: string;
    state: SessionState;
    mfa_passed: boolean;
    last_seen_at: Date | string;
    user_id: number;
    username: string;
    is_admin: boolean;
  },
  'id'
>(
  (p) => sql`select s.id as session_id, s.state, s.mfa_passed, s.last_seen_at, u.id as user_id, u.username,
      exists (select 1 from ${groupMembers} gm join ${groups} g on g.id = gm.group_id
              where gm.user_id = u.id and g.is_admin) as is_admin
    from ${sessions} s join ${users} u on u.id = s.user_id
    where s.id = ${p.id} and s.expires_at > now() and u.is_active`,
);

export class SessionsRepo {
  constructor(private readonly db: Db) {}

  async insert(values: typeof sessions.$inferInsert): Promise<void> {
    await this.db.insert(sessions).values(values);
  }

  /**
   * The session with its (active) user and admin flag, in one round trip. Every API request runs
   * it, so it is one hand-written statement, prepared once.
   */
  async findLive(id: string): Promise<SessionActor | undefined> {
    const [row] = await findLiveSession(this.db, { id });
    if (!row) return undefined;
    return {
      sessionId: row.session_id,
      state: row.state,
      mfaPassed: row.mfa_passed,
      lastSeenAt: new Date(row.last_seen_at),
      userId: row.user_id,
      username: row.username,
      isAdmin: row.is_admin,
    };
  }

  async touch(id: string, expiresAt: Date): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt: new Date(), expiresAt }).where(eq(sessions.id, id));
  }

  /** Ends one session; returns whose it was (undefined when there was none). */
  async delete(id: string): Promise<{ userId: number; username: string } | undefined> {
    const [row] = await this.db
      .delete(sessions)
      .where(eq(sessions.id, id))
      .returning({
        userId: sessions.userId,
        username: sql<string>`(select ${users.username} from ${users} where ${users.id} = ${sessions.userId})`,
      });
    return row;
  }

  /** Ends a user's sessions (but `exceptSessionId`); returns how many ended. */
  async deleteForUser(userId: number, exceptSessionId?: string): Promise<number> {
    const rows = await this.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined))
      .returning({ id: sessions.id });
    return rows.length;
  }

  async deleteExpired(): Promise<number> {
    const rows = await this.db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`)).returning({ id: sessions.id });
    return rows.length;
  }
}
