import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { mfaMethods, mfaTotp } from '#src/db/schema/index.js';

export interface TotpRecord {
  /** Sealed with the instance secret (SecretBox). */
  secret: string;
  lastStep: number | null;
}

export class TotpRepo {
  constructor(private readonly db: Db) {}

  async get(userId: number): Promise<TotpRecord | undefined> {
    const [row] = await this.db
      .select({ secret: mfaTotp.secret, lastStep: mfaTotp.lastStep })
      .from(mfaTotp)
      .where(eq(mfaTotp.userId, userId));
    return row;
  }

  /** The secret only when TOTP is enabled (one statement: the sign-in step's read). */
  async getEnabled(userId: number): Promise<TotpRecord | undefined> {
    const [row] = await this.db
      .select({ secret: mfaTotp.secret, lastStep: mfaTotp.lastStep })
      .from(mfaTotp)
      .innerJoin(mfaMethods, and(eq(mfaMethods.userId, mfaTotp.userId), eq(mfaMethods.method, 'totp')))
      .where(eq(mfaTotp.userId, userId));
    return row;
  }

  /** A new secret replaces the old one (and its replay mark). */
  async put(userId: number, sealedSecret: string): Promise<void> {
    await this.db
      .insert(mfaTotp)
      .values({ userId, secret: sealedSecret })
      .onConflictDoUpdate({ target: mfaTotp.userId, set: { secret: sealedSecret, lastStep: null, createdAt: new Date() } });
  }

  /**
   * Records `step` as the last accepted time step unless that step or a later one was accepted
   * already: true when this call accepted it. One statement, so two requests with the same code
   * cannot both pass.
   */
  async accept(userId: number, step: number): Promise<boolean> {
    const rows = await this.db
      .update(mfaTotp)
      .set({ lastStep: step })
      .where(and(eq(mfaTotp.userId, userId), or(isNull(mfaTotp.lastStep), lt(mfaTotp.lastStep, step))))
      .returning({ userId: mfaTotp.userId });
    return rows.length === 1;
  }

  async delete(userId: number): Promise<void> {
    await this.db.delete(mfaTotp).where(eq(mfaTotp.userId, userId));
  }
}
