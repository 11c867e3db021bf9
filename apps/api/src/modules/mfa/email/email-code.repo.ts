import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { mfaChallenges, users } from '#src/db/schema/index.js';
import type { ChallengePurpose } from '#src/modules/mfa/webauthn/webauthn.repo.js';

/** Emailed codes live in `mfa_challenges` (one per user and purpose), as keyed hashes. */
export class EmailCodeRepo {
  constructor(private readonly db: Db) {}

  /** The user's address, the row locked so that two sends of one user queue one after the other. */
  async lockUser(userId: number): Promise<{ email: string; language: string | null } | undefined> {
    const [row] = await this.db
      .select({ email: users.email, language: users.language })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    return row;
  }

  async sentAt(userId: number, purpose: ChallengePurpose): Promise<Date | undefined> {
    const [row] = await this.db
      .select({ sentAt: mfaChallenges.sentAt })
      .from(mfaChallenges)
      .where(and(eq(mfaChallenges.userId, userId), eq(mfaChallenges.purpose, purpose)));
    return row?.sentAt;
  }

  async drop(userId: number, purpose: ChallengePurpose): Promise<void> {
    await this.db.delete(mfaChallenges).where(and(eq(mfaChallenges.userId, userId), eq(mfaChallenges.purpose, purpose)));
  }

  /** Deletes the code when it matches and has not expired: true once, for the right code only. */
  async spend(userId: number, purpose: ChallengePurpose, hash: string): Promise<boolean> {
    const rows = await this.db
      .delete(mfaChallenges)
      .where(
        and(
          eq(mfaChallenges.userId, userId),
          eq(mfaChallenges.purpose, purpose),
          eq(mfaChallenges.secret, hash),
          gt(mfaChallenges.expiresAt, new Date()),
        ),
      )
      .returning({ userId: mfaChallenges.userId });
    return rows.length === 1;
  }
}
