import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import type { Job, JobContext } from '#src/jobs/jobs.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { bodyOf, startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';
import { createMailJob, retryDelay } from './mail.job.js';

describe('mail job', () => {
  let t: TestApp;
  let smtp: TestSmtpServer | undefined;
  let job: Job | undefined;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
  });
  afterEach(async () => {
    await job?.stop();
    await smtp?.close();
    job = undefined;
    smtp = undefined;
  });
  afterAll(() => t.close());

  const configure = (port: number) =>
    new SettingsRepo(t.database.db).update({
      smtpServer: '127.0.0.1',
      smtpPort: port,
      smtpEncryption: 'none',
      smtpSender: 'vpn@example.com',
    });
  const start = (options: Parameters<typeof createMailJob>[1] = {}) => {
    const ctx = { database: t.database, services: t.app.services, log: t.app.log, owner: 'test' } as unknown as JobContext;
    job = createMailJob(ctx, { pollMs: 60_000, ...options });
    job.start();
  };
  const enqueue = (to: string, code: string) =>
    t.database.db.transaction(async (tx) => {
      await t.app.services.mail.enqueue(tx as unknown as Db, { to, template: 'mfa_email_code', data: { code } });
    });
  const outbox = async () =>
    (
      (await t.database.db.execute(sql`select "to", status, attempts, last_error, data from mail_outbox order by id`)) as unknown as {
        rows: { to: string; status: string; attempts: number; last_error: string | null; data: string }[];
      }
    ).rows;
  const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it('sends a queued mail as soon as its transaction commits, never one rolled back', async () => {
    smtp = await startSmtpServer();
    await configure(smtp.port);
    start();
    await t.database.db
      .transaction(async (tx) => {
        await t.app.services.mail.enqueue(tx as unknown as Db, {
          to: 'gone@example.com',
          template: 'mfa_email_code',
          data: { code: '999999' },
        });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await enqueue('alice@example.com', '123456');
    // Woken by the commit's notification: the poll interval (60 s) is far longer than the wait.
    const [received] = await smtp.waitFor(1, 5_000);
    expect(received?.to).toEqual(['alice@example.com']);
    expect(bodyOf(received?.raw ?? '')).toContain('123456');
    const rows = await until(outbox, (r) => r[0]?.status === 'sent');
    expect(rows).toHaveLength(1);
    // The code does not stay in the queue once sent.
    expect(rows[0]?.data).toBe('');
    expect(smtp.received).toHaveLength(1);
  });

  it('retries a mail queued while the server is down and sends it when the server comes up', async () => {
    const probe = await startSmtpServer();
    const port = probe.port;
    await probe.close();
    await configure(port);
    start({ retryBaseMs: 300, retryMaxMs: 300, pollMs: 100 });
    await enqueue('bob@example.com', '654321');
    const failed = await until(outbox, (r) => (r[0]?.attempts ?? 0) >= 1 && r[0]?.last_error !== null);
    expect(failed[0]?.status).toBe('pending');
    expect(failed[0]?.last_error).toMatch(/ECONNREFUSED|connect/i);
    smtp = await startSmtpServer({ port });
    const [received] = await smtp.waitFor(1);
    expect(received?.to).toEqual(['bob@example.com']);
    await until(outbox, (r) => r[0]?.status === 'sent');
  });

  it('gives a mail up after the last attempt', async () => {
    const probe = await startSmtpServer();
    await probe.close();
    await configure(probe.port);
    start({ maxAttempts: 2, retryBaseMs: 50, retryMaxMs: 50, pollMs: 50 });
    await enqueue('carol@example.com', '111222');
    const rows = await until(outbox, (r) => r[0]?.status === 'failed');
    expect(rows[0]?.attempts).toBe(2);
    expect(rows[0]?.data).toBe('');
  });

  it('deletes sent and failed mails after the keep period, never a pending one', async () => {
    await t.database.db.execute(sql`insert into mail_outbox ("to", template, data, status, created_at, next_attempt_at) values
      ('old-sent@example.com', 'test', '', 'sent', now() - interval '8 days', now()),
      ('old-failed@example.com', 'test', '', 'failed', now() - interval '8 days', now()),
      ('new-sent@example.com', 'test', '', 'sent', now() - interval '1 day', now()),
      ('old-pending@example.com', 'test', '', 'pending', now() - interval '8 days', now() + interval '1 day')`);
    start();
    const rows = await until(outbox, (r) => r.length === 2);
    expect(rows.map((r) => r.to).sort()).toEqual(['new-sent@example.com', 'old-pending@example.com']);
  });

  it('backs off exponentially up to the cap', () => {
    const o = { retryBaseMs: 30_000, retryMaxMs: 900_000 };
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => retryDelay(n, o))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000]);
  });
});
