import type { Job, JobContext } from '#src/jobs/jobs.js';
import { MAIL_CHANNEL, MailRepo, type MailOutboxRow } from './mail.repo.js';
import { MailError } from './mail.service.js';

export interface MailJobOptions {
  /** Mails sent at the same time by one process. */
  concurrency: number;
  /** Attempts before a mail is given up (status `failed`). */
  maxAttempts: number;
  /** Wait before the second attempt; doubled per attempt up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long a taken mail stays hidden from other replicas while it is being sent. */
  leaseMs: number;
  /** Poll interval when no notification arrives (a lost notification delays mail by at most this). */
  pollMs: number;
  /** Sent and failed mails are deleted after this many days. */
  keepDays: number;
}

/** 10 attempts over about 75 minutes: 30 s, 1, 2, 4, 8 min, then every 15 min. */
export const MAIL_JOB_DEFAULTS: MailJobOptions = {
  concurrency: 4,
  maxAttempts: 10,
  retryBaseMs: 30_000,
  retryMaxMs: 15 * 60_000,
  leaseMs: 2 * 60_000,
  pollMs: 10_000,
  keepDays: 7,
};

const PURGE_EVERY_MS = 3_600_000;

export const retryDelay = (attempts: number, o: Pick<MailJobOptions, 'retryBaseMs' | 'retryMaxMs'>): number =>
  Math.min(o.retryBaseMs * 2 ** Math.max(0, attempts - 1), o.retryMaxMs);

/**
 * Sends the mail queue (`mail_outbox`): wakes when a mail is queued (NOTIFY at commit) and polls
 * otherwise; sends at most `concurrency` mails at a time; retries with backoff and gives up after
 * `maxAttempts`. Logs the recipient's row id and the server's answer, never the password or data.
 */
export function createMailJob(ctx: JobContext, options: Partial<MailJobOptions> = {}): Job {
  const o = { ...MAIL_JOB_DEFAULTS, ...options };
  const repo = new MailRepo(ctx.database.db);
  const mail = ctx.services.mail;
  let stopped = false;
  let generation = 0;
  let wake: (() => void) | undefined;
  let stopListening: (() => Promise<void>) | undefined;
  let running: Promise<void> | undefined;
  let purgedAt = 0;

  const notify = () => {
    generation += 1;
    wake?.();
  };
  const sleep = (ms: number, since: number) =>
    since !== generation || stopped
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(done, ms);
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
        });

  const sendOne = async (row: MailOutboxRow) => {
    try {
      await mail.deliver(row);
      await repo.markSent(row.id);
    } catch (err) {
      const reason = err instanceof MailError ? err.reason : err instanceof Error ? err.message : String(err);
      const giveUp = row.attempts >= o.maxAttempts;
      await repo.markFailed(row.id, reason, giveUp ? undefined : retryDelay(row.attempts, o));
      ctx.log.warn({ mailId: row.id, template: row.template, attempt: row.attempts, reason, gaveUp: giveUp }, 'mail not sent');
    }
  };

  const drain = async () => {
    for (;;) {
      const began = performance.now();
      const rows = await repo.claimDue(o.concurrency, o.leaseMs);
      await Promise.all(rows.map(sendOne));
      // One observation per batch of mails (sent or not), none for an empty poll (/metrics).
      if (rows.length > 0) job.onRound?.((performance.now() - began) / 1000);
      if (rows.length < o.concurrency || stopped) return;
    }
  };

  const loop = async () => {
    while (!stopped) {
      const since = generation;
      try {
        await drain();
        if (Date.now() - purgedAt > PURGE_EVERY_MS) {
          purgedAt = Date.now();
          await repo.purgeDone(o.keepDays);
        }
      } catch (err) {
        ctx.log.error({ err }, 'mail queue failed');
      }
      await sleep(o.pollMs, since);
    }
  };

  const job: Job = {
    name: 'mail',
    start() {
      running = (async () => {
        stopListening = await ctx.database.listen?.(MAIL_CHANNEL, notify, notify);
        await loop();
      })();
    },
    async stop() {
      stopped = true;
      wake?.();
      await running;
      await stopListening?.();
    },
  };
  return job;
}

export const mailJob = (ctx: JobContext): Job => createMailJob(ctx);
