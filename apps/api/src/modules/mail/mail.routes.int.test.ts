import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '#src/lib/crypto.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';
import { bodyOf, startSmtpServer, subjectOf, type TestSmtpServer } from '#test/smtp-server.js';
import { MailError, MailService } from './mail.service.js';

const PASSWORD = 'smtp-Pa55word!';

describe('SMTP settings and POST /mail/test', () => {
  let t: TestApp;
  let admin: string;
  let smtp: TestSmtpServer | undefined;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });
  afterAll(() => t.close());

  const patch = (payload: Record<string, unknown>) => t.request('PATCH', '/api/v1/settings', { cookie: admin, payload });
  const configure = (port: number, extra: Record<string, unknown> = {}) =>
    patch({
      smtp_server: '127.0.0.1',
      smtp_port: port,
      smtp_encryption: 'none',
      smtp_user: 'palisade',
      smtp_password: PASSWORD,
      smtp_sender: 'vpn@example.com',
      ...extra,
    });
  const fields = (res: { json(): { errors?: { path: string; code: string }[] } }) =>
    (res.json().errors ?? []).map((e) => `${e.path}:${e.code}`);

  it('stores the SMTP settings with the password sealed and never returned; GET /info follows', async () => {
    expect((await t.request('GET', '/api/v1/info', { cookie: admin })).json().smtp_enabled).toBe(false);
    const res = await configure(2525);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      smtp_server: '127.0.0.1',
      smtp_port: 2525,
      smtp_encryption: 'none',
      smtp_user: 'palisade',
      smtp_password_set: true,
      smtp_sender: 'vpn@example.com',
    });
    expect(res.body).not.toContain(PASSWORD);
    expect(res.json()).not.toHaveProperty('smtp_password');
    const stored = await new SettingsRepo(t.database.db).get();
    expect(stored.smtpPassword).toMatch(/^v1\./);
    expect(stored.smtpPassword).not.toContain(PASSWORD);
    expect((await t.request('GET', '/api/v1/info', { cookie: admin })).json().smtp_enabled).toBe(true);
    // Not public: the login page's essentials carry no SMTP field.
    expect(Object.keys((await t.request('GET', '/api/v1/settings_essentials')).json()).filter((k) => k.startsWith('smtp'))).toEqual([]);
    // A new password is recorded as a change although nothing visible changes (never its value).
    await patch({ smtp_password: 'another-Secret-1' });
    const changes = (await t.database.db.execute(
      sql`select details from events where type = 'settings.modified' order by id desc limit 1`,
    )) as unknown as {
      rows: { details: { keys: string[] } }[];
    };
    expect(changes.rows[0]?.details.keys).toEqual(['smtp_password']);
    expect(JSON.stringify(changes.rows)).not.toContain('another-Secret-1');
    // Absent keeps the password, '' removes it.
    expect((await patch({ smtp_user: 'other' })).json().smtp_password_set).toBe(true);
    expect((await patch({ smtp_password: '' })).json().smtp_password_set).toBe(false);
    expect((await new SettingsRepo(t.database.db).get()).smtpPassword).toBeNull();
    // Without a sender nothing can be sent.
    await patch({ smtp_sender: '' });
    expect((await t.request('GET', '/api/v1/info', { cookie: admin })).json().smtp_enabled).toBe(false);
  });

  it('refuses bad SMTP fields with field errors', async () => {
    const res = await patch({
      smtp_server: 'bad host!',
      smtp_port: 70_000,
      smtp_encryption: 'ssl',
      smtp_sender: 'not-an-address',
      smtp_user: 'x'.repeat(300),
    });
    expect(res.statusCode).toBe(400);
    expect(fields(res).sort()).toEqual([
      'smtp_encryption:invalid',
      'smtp_port:max_value',
      'smtp_sender:email',
      'smtp_server:invalid',
      'smtp_user:max_length',
    ]);
    expect(fields(await patch({ smtp_port: 0 }))).toEqual(['smtp_port:min_value']);
    expect(fields(await patch({ smtp_port: null }))).toEqual(['smtp_port:number']);
    expect((await patch({ smtp_port: 465, smtp_server: 'smtp.example.com', smtp_encryption: 'tls' })).statusCode).toBe(200);
  });

  it('sends a test mail now, in the console language, and records it', async () => {
    smtp = await startSmtpServer({ auth: { user: 'palisade', pass: PASSWORD } });
    await configure(smtp.port);
    const res = await t.request('POST', '/api/v1/mail/test', { cookie: admin, payload: { to: 'ops@example.com', locale: 'ko' } });
    expect(res.statusCode).toBe(204);
    const [received] = await smtp.waitFor(1);
    expect(received?.to).toEqual(['ops@example.com']);
    expect(subjectOf(received?.raw ?? '')).toBe('Palisade: 테스트 이메일');
    const events = (await t.database.db.execute(sql`select type, details from events where type = 'mail.test_sent'`)) as unknown as {
      rows: { type: string; details: Record<string, unknown> }[];
    };
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0]?.details).toMatchObject({ to: 'ops@example.com' });
  });

  it('answers Error sending email with the server reason when the server refuses the login', async () => {
    smtp = await startSmtpServer({ auth: { user: 'palisade', pass: 'the-right-one' } });
    await configure(smtp.port);
    const res = await t.request('POST', '/api/v1/mail/test', { cookie: admin, payload: { to: 'ops@example.com' } });
    expect(res.statusCode).toBe(400);
    const problem = problemOf(res);
    expect(problem.code).toBe('mail.send_failed');
    expect(problem.body.detail).toMatch(/^Error sending email: .*535/);
    expect(res.body).not.toContain(PASSWORD);
    expect(smtp.received).toHaveLength(0);
  });

  it('answers mail.not_configured before SMTP is set up, and refuses non-admins', async () => {
    const res = await t.request('POST', '/api/v1/mail/test', { cookie: admin, payload: { to: 'ops@example.com' } });
    expect(res.statusCode).toBe(400);
    expect(problemOf(res).code).toBe('mail.not_configured');
    const user = await t.createUser('alice');
    expect((await t.request('POST', '/api/v1/mail/test', { cookie: user, payload: { to: 'ops@example.com' } })).statusCode).toBe(403);
    expect(fields(await t.request('POST', '/api/v1/mail/test', { cookie: admin, payload: { to: 'nope' } }))).toEqual(['to:email']);
  });

  it('sends over STARTTLS to a server whose self-signed certificate is trusted, and refuses it when it is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palisade-smtp-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const key = readFileSync(join(dir, 'key.pem'), 'utf8');
      const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
      smtp = await startSmtpServer({ tls: { key, cert } });
      const box = SecretBox.fromSecret('starttls-test-secret-key-0123456789abcdef');
      await new SettingsRepo(t.database.db).update({
        smtpServer: '127.0.0.1',
        smtpPort: smtp.port,
        smtpEncryption: 'starttls',
        smtpSender: 'vpn@example.com',
      });
      await new MailService(t.database.db, box, { ca: cert, timeoutMs: 5_000 }).sendNow({ to: 'tls@example.com', template: 'test' });
      const [received] = await smtp.waitFor(1);
      expect(bodyOf(received?.raw ?? '')).toContain('outgoing mail is configured correctly');
      // Without trusting the certificate (the app's own service) the upgrade fails: nothing is sent in clear.
      const err = await new MailService(t.database.db, box, { timeoutMs: 5_000 })
        .sendNow({ to: 'tls@example.com', template: 'test' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MailError);
      expect((err as MailError).reason).toMatch(/certificate/i);
      expect(smtp.received).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
