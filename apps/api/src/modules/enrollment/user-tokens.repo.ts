import type { UserTokenPurpose } from '@palisade/contracts';
import { and, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { events, users, userTokens } from '#src/db/schema/index.js';

export type UserTokenRow = typeof userTokens.$inferSelect;
export type TokenUser = typeof users.$inferSelect;

/** One-time tokens of users (enrollment, desktop activation, password reset); only hashes are stored. */
export class UserTokensRepo {
  constructor(private readonly db: Db) {}

  /** Issues a token: the user's earlier unused tokens of the same purpose are revoked (deleted) first. */
  async issue(values: {
    userId: number;
    purpose: UserTokenPurpose;
    tokenHash: string;
    expiresAt: Date;
    createdByUserId: number | null;
  }): Promise<UserTokenRow> {
    await this.db
      .delete(userTokens)
      .where(and(eq(userTokens.userId, values.userId), eq(userTokens.purpose, values.purpose), isNull(userTokens.usedAt)));
    const [row] = await this.db.insert(userTokens).values(values).returning();
    if (!row) throw new Error('user token not inserted');
    return row;
  }

  /** The token with this hash and its user, whatever its state (the caller judges it). */
  async findByHash(tokenHash: string): Promise<{ token: UserTokenRow; user: TokenUser } | undefined> {
    const [row] = await this.db
      .select({ token: userTokens, user: users })
      .from(userTokens)
      .innerJoin(users, eq(users.id, userTokens.userId))
      .where(eq(userTokens.tokenHash, tokenHash))
      .limit(1);
    return row;
  }

  /** Spends the token; false when it was spent already (a concurrent redemption won). */
  async markUsed(id: number): Promise<boolean> {
    const rows = await this.db
      .update(userTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(userTokens.id, id), isNull(userTokens.usedAt)))
      .returning({ id: userTokens.id });
    return rows.length > 0;
  }

  /** The account with this email address (addresses are unique, case-insensitively). */
  async findUserByEmail(email: string): Promise<TokenUser | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
    return row;
  }

  /** Whether the user set a password in an enrollment since `since` (its `enrollment.password_set` event). */
  async passwordSetSince(userId: number, since: Date): Promise<boolean> {
    const [row] = await this.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.userId, userId), eq(events.type, 'enrollment.password_set'), gte(events.occurredAt, since)))
      .limit(1);
    return row !== undefined;
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(userTokens).where(eq(userTokens.id, id));
  }
}
