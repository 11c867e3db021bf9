import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { mailOutbox } from '#src/db/schema/index.js';

export type MailOutboxRow = typeof mailOutbox.$inferSelect;

/** Channel notified (at commit) when a mail is queued, so the mail job wakes at once. */
export const MAIL_CHANNEL = 'palisade_mail';

export class MailRepo {
  constructor(private readonly db: Db) {}

  async insert(values: { to: string; template: string; locale: string; data: string }): Promise<void> {
    await this.db.insert(mailOutbox).values(values);
    // Delivered when the caller's transaction commits; dropped with it on rollback.
    await this.db.execute(sql`select pg_notify(${MAIL_CHANNEL}, '')`);
  }

  /**
   * Takes up to `limit` due mails: each gets one more attempt and is hidden for `leaseMs` (a
   * replica that dies mid-send leaves it to be retried after that). SKIP LOCKED keeps replicas
   * from taking the same mail.
   */
  async claimDue(limit: number, leaseMs: number): Promise<MailOutboxRow[]> {
    return this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const due = await tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
        .orderBy(asc(mailOutbox.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(mailOutbox)
        .set({
          attempts: sql`${mailOutbox.attempts} + 1`,
          nextAttemptAt: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
        })
        .where(
          inArray(
            mailOutbox.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  async markSent(id: number): Promise<void> {
    // The data (e.g. a code) is not needed once sent.
    await this.db.update(mailOutbox).set({ status: 'sent', sentAt: new Date(), data: '', lastError: null }).where(eq(mailOutbox.id, id));
  }

  async markFailed(id: number, error: string, retryInMs: number | undefined): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set(
        retryInMs === undefined
          ? { status: 'failed', lastError: error, data: '' }
          : { lastError: error, nextAttemptAt: sql`now() + ${`${retryInMs} milliseconds`}::interval` },
      )
      .where(eq(mailOutbox.id, id));
  }

  /** Sent and failed mails older than `days` (the outbox keeps them a while for troubleshooting). */
  async purgeDone(days: number): Promise<number> {
    const rows = await this.db
      .delete(mailOutbox)
      .where(and(inArray(mailOutbox.status, ['sent', 'failed']), lte(mailOutbox.createdAt, sql`now() - ${`${days} days`}::interval`)))
      .returning({ id: mailOutbox.id });
    return rows.length;
  }
}
