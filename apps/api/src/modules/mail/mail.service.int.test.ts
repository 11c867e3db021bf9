import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '#src/db/client.js';
import { SecretBox } from '#src/lib/crypto.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { bodyOf, startSmtpServer, subjectOf, type TestSmtpServer } from '#test/smtp-server.js';
import { MailError, MailService } from './mail.service.js';

const box = SecretBox.fromSecret('mail-service-test-secret-key-0123456789');
const PASSWORD = 'smtp-Secret-123';

describe('mail service', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let mail: MailService;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    smtp = await startSmtpServer({ auth: { user: 'palisade', pass: PASSWORD } });
    mail = new MailService(t.database.db, box, { timeoutMs: 5_000 });
    await new SettingsRepo(t.database.db).update({
      instanceName: 'Acme VPN',
      smtpServer: '127.0.0.1',
      smtpPort: smtp.port,
      smtpEncryption: 'none',
      smtpUser: 'palisade',
      smtpPassword: box.encrypt(PASSWORD),
      smtpSender: 'vpn@example.com',
    });
  });
  afterEach(() => smtp.close());
  afterAll(() => t.close());

  const outbox = async () =>
    (
      (await t.database.db.execute(sql`select "to", template, locale, data, status from mail_outbox`)) as unknown as {
        rows: Record<string, string>[];
      }
    ).rows;

  it('sends a mail now, in the recipient language, from the instance', async () => {
    await mail.sendNow({ to: 'alice@example.com', template: 'mfa_email_code', locale: 'pl', data: { code: '123456' } });
    const [received] = await smtp.waitFor(1);
    expect(received?.to).toEqual(['alice@example.com']);
    expect(received?.from).toBe('vpn@example.com');
    expect(subjectOf(received?.raw ?? '')).toBe('Acme VPN: Twój kod weryfikacyjny 123456');
    expect(bodyOf(received?.raw ?? '')).toContain('Jest ważny przez 10 minut');
  });

  it('reports the server refusing the login as Error sending email with its reason, never the password', async () => {
    await new SettingsRepo(t.database.db).update({ smtpPassword: box.encrypt('wrong-password') });
    const err = await mail.sendNow({ to: 'alice@example.com', template: 'test' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MailError);
    const e = err as MailError;
    expect(e.status).toBe(400);
    expect(e.code).toBe('mail.send_failed');
    expect(e.detail).toMatch(/^Error sending email: .*535/);
    expect(e.detail).not.toContain('wrong-password');
    expect(smtp.received).toHaveLength(0);
  });

  it('queues in the caller transaction: a rolled-back mail is never stored, a committed one is sealed', async () => {
    await t.database.db
      .transaction(async (tx) => {
        await mail.enqueue(tx as unknown as Db, { to: 'gone@example.com', template: 'mfa_email_code', data: { code: '111111' } });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await outbox()).toEqual([]);
    await t.database.db.transaction(async (tx) => {
      await mail.enqueue(tx as unknown as Db, {
        to: 'kept@example.com',
        template: 'mfa_email_code',
        locale: 'ko',
        data: { code: '222222' },
      });
    });
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ to: 'kept@example.com', template: 'mfa_email_code', locale: 'ko', status: 'pending' });
    expect(rows[0]?.data).not.toContain('222222');
  });

  it('refuses to queue while SMTP is not configured, and a template without its data', async () => {
    await expect(mail.enqueue(t.database.db, { to: 'a@example.com', template: 'mfa_email_code', data: {} })).rejects.toThrow(/needs code/);
    await new SettingsRepo(t.database.db).update({ smtpServer: '' });
    expect(await mail.isConfigured()).toBe(false);
    await expect(mail.enqueue(t.database.db, { to: 'a@example.com', template: 'test' })).rejects.toMatchObject({
      code: 'mail.not_configured',
    });
    await expect(mail.sendNow({ to: 'a@example.com', template: 'test' })).rejects.toMatchObject({ code: 'mail.not_configured' });
  });
});
