import { and, eq } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { mfaChallenges, mfaWebauthnKeys, users } from '#src/db/schema/index.js';

export type KeyRow = typeof mfaWebauthnKeys.$inferSelect;
export type NewKeyRow = typeof mfaWebauthnKeys.$inferInsert;
export type ChallengePurpose = (typeof mfaChallenges.$inferSelect)['purpose'];

/** Security keys and the server-side challenges of the second factors. */
export class WebauthnRepo {
  constructor(private readonly db: Db) {}

  keysOf(userId: number): Promise<KeyRow[]> {
    return this.db.select().from(mfaWebauthnKeys).where(eq(mfaWebauthnKeys.userId, userId)).orderBy(mfaWebauthnKeys.id);
  }

  async keyOf(userId: number, credentialId: string): Promise<KeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(mfaWebauthnKeys)
      .where(and(eq(mfaWebauthnKeys.userId, userId), eq(mfaWebauthnKeys.credentialId, credentialId)));
    return row;
  }

  /** Undefined when the credential is already registered (to anyone). */
  async insertKey(values: NewKeyRow): Promise<KeyRow | undefined> {
    const [row] = await this.db.insert(mfaWebauthnKeys).values(values).onConflictDoNothing().returning();
    return row;
  }

  /** Moves the counter on from the value read (false when another sign-in moved it first). */
  async advanceCounter(key: KeyRow, counter: number): Promise<boolean> {
    const rows = await this.db
      .update(mfaWebauthnKeys)
      .set({ counter, lastUsedAt: new Date() })
      .where(and(eq(mfaWebauthnKeys.id, key.id), eq(mfaWebauthnKeys.counter, key.counter)))
      .returning({ id: mfaWebauthnKeys.id });
    return rows.length === 1;
  }

  async deleteKey(userId: number, keyId: number): Promise<KeyRow | undefined> {
    const [row] = await this.db
      .delete(mfaWebauthnKeys)
      .where(and(eq(mfaWebauthnKeys.id, keyId), eq(mfaWebauthnKeys.userId, userId)))
      .returning();
    return row;
  }

  async hasKeys(userId: number): Promise<boolean> {
    const rows = await this.db.select({ id: mfaWebauthnKeys.id }).from(mfaWebauthnKeys).where(eq(mfaWebauthnKeys.userId, userId)).limit(1);
    return rows.length > 0;
  }

  async userByName(username: string): Promise<{ id: number; username: string } | undefined> {
    const [user] = await this.db.select({ id: users.id, username: users.username }).from(users).where(eq(users.username, username));
    return user;
  }

  /** One live challenge per user and purpose: a new one replaces the last. */
  async storeChallenge(userId: number, purpose: ChallengePurpose, secret: string, ttlMs: number): Promise<void> {
    const expiresAt = new Date(Date.now() + ttlMs);
    const sentAt = new Date();
    await this.db
      .insert(mfaChallenges)
      .values({ userId, purpose, secret, expiresAt, sentAt })
      .onConflictDoUpdate({ target: [mfaChallenges.userId, mfaChallenges.purpose], set: { secret, expiresAt, sentAt } });
  }

  /** Spends the stored challenge: gone after this call; undefined when there was none or it had expired. */
  async takeChallenge(userId: number, purpose: ChallengePurpose): Promise<string | undefined> {
    const [row] = await this.db
      .delete(mfaChallenges)
      .where(and(eq(mfaChallenges.userId, userId), eq(mfaChallenges.purpose, purpose)))
      .returning();
    return row && row.expiresAt > new Date() ? row.secret : undefined;
  }
}
