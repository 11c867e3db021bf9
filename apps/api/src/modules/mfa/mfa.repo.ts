import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import {
  authFailures,
  mfaChallenges,
  mfaMethods,
  mfaRecoveryCodes,
  mfaTotp,
  mfaWebauthnKeys,
  sessions,
  users,
} from '#src/db/schema/index.js';

export type MfaMethod = (typeof mfaMethods.$inferSelect)['method'];

/** The order methods are offered in (the default goes first in the console). */
const METHOD_ORDER: MfaMethod[] = ['totp', 'webauthn', 'email'];

/** Enabled methods, the user's MFA flags, recovery codes and the pending session's end. */
export class MfaRepo {
  constructor(private readonly db: Db) {}

  async enabledMethods(userId: number): Promise<MfaMethod[]> {
    const rows = await this.db.select({ method: mfaMethods.method }).from(mfaMethods).where(eq(mfaMethods.userId, userId));
    const set = new Set(rows.map((r) => r.method));
    return METHOD_ORDER.filter((m) => set.has(m));
  }

  async addMethod(userId: number, method: MfaMethod): Promise<void> {
    await this.db.insert(mfaMethods).values({ userId, method }).onConflictDoNothing();
  }

  async removeMethod(userId: number, method: MfaMethod): Promise<void> {
    await this.db.delete(mfaMethods).where(and(eq(mfaMethods.userId, userId), eq(mfaMethods.method, method)));
  }

  /** Every method's row and the TOTP secret (other methods' modules keep their own data). */
  async removeAllMethods(userId: number): Promise<void> {
    await this.db.delete(mfaMethods).where(eq(mfaMethods.userId, userId));
    await this.db.delete(mfaTotp).where(eq(mfaTotp.userId, userId));
  }

  /** The security keys and every pending challenge or emailed code (turning MFA off, the admin reset). */
  async removeKeysAndChallenges(userId: number): Promise<void> {
    await this.db.delete(mfaWebauthnKeys).where(eq(mfaWebauthnKeys.userId, userId));
    await this.db.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
  }

  /**
   * Takes one counted attempt back from a failure counter (the login lockout's `auth_failures`),
   * lifting a lock only when the count falls below `limit` again: a passed check outside the
   * sign-in leaves the other failures (anyone's guesses) counted.
   */
  async forgiveAttempt(key: string, limit: number): Promise<void> {
    await this.db
      .update(authFailures)
      .set({
        failures: sql`greatest(${authFailures.failures} - 1, 0)`,
        lockedUntil: sql`case when ${authFailures.failures} - 1 < ${limit}::int then null else ${authFailures.lockedUntil} end`,
      })
      .where(eq(authFailures.key, key));
  }

  async passwordHash(userId: number): Promise<string | null> {
    const [row] = await this.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
    return row?.hash ?? null;
  }

  async defaultMethod(userId: number): Promise<string | null> {
    const [row] = await this.db.select({ mfaMethod: users.mfaMethod }).from(users).where(eq(users.id, userId));
    return row?.mfaMethod ?? null;
  }

  /** MFA on, keeping the default when there is one (`method` otherwise). */
  async turnOn(userId: number, method: MfaMethod): Promise<void> {
    await this.db
      .update(users)
      .set({ mfaEnabled: true, mfaMethod: sql`coalesce(${users.mfaMethod}, ${method}::text)`, updatedAt: new Date() })
      .where(eq(users.id, userId));
  }

  async setFlags(userId: number, enabled: boolean, method: MfaMethod | null): Promise<void> {
    await this.db.update(users).set({ mfaEnabled: enabled, mfaMethod: method, updatedAt: new Date() }).where(eq(users.id, userId));
  }

  async replaceRecoveryCodes(userId: number, hashes: string[]): Promise<void> {
    await this.deleteRecoveryCodes(userId);
    if (hashes.length > 0) await this.db.insert(mfaRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
  }

  async deleteRecoveryCodes(userId: number): Promise<void> {
    await this.db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  }

  /** Marks an unused code used; false when there was none with that hash. */
  async spendRecoveryCode(userId: number, codeHash: string): Promise<boolean> {
    const rows = await this.db
      .update(mfaRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, codeHash), isNull(mfaRecoveryCodes.usedAt)))
      .returning({ userId: mfaRecoveryCodes.userId });
    return rows.length === 1;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mfaRecoveryCodes)
      .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
    return row?.n ?? 0;
  }

  /** Deletes a pending-MFA session; false when it was already gone (spent by a racing step). */
  async spendPendingSession(sessionId: string): Promise<boolean> {
    const rows = await this.db
      .delete(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.state, 'mfa_pending')))
      .returning({ id: sessions.id });
    return rows.length === 1;
  }
}
