import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mfaChallenges, users } from '#src/db/schema/index.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { cookieOf, createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { bodyOf, startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';

describe('email codes', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let carol: string;

  const configure = () =>
    new SettingsRepo(t.database.db).update({
      smtpServer: '127.0.0.1',
      smtpPort: smtp.port,
      smtpEncryption: 'none',
      smtpSender: 'vpn@example.com',
    });
  /** The code of the `n`th mail the SMTP server received (1-based), read from its body. */
  const codeOfMail = async (n: number) => {
    const mails = await smtp.waitFor(n, 15_000);
    const mail = mails[n - 1];
    expect(mail?.to).toEqual(['carol@example.com']);
    const code = /\b(\d{6})\b/.exec(bodyOf(mail?.raw ?? ''))?.[1];
    if (!code) throw new Error('no code in the mail');
    return code;
  };
  const enableEmail = async () => {
    const n = smtp.received.length + 1;
    expect((await t.request('POST', '/api/v1/auth/email/init', { cookie: carol })).statusCode).toBe(204);
    const res = await t.request('POST', '/api/v1/auth/email', {
      cookie: carol,
      payload: { code: await codeOfMail(n) },
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const passwordStep = async () => {
    const res = await t.request('POST', '/api/v1/auth', { payload: { username: 'carol', password: USER_PASSWORD } });
    expect(res.statusCode).toBe(201);
    return cookieOf(res);
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    smtp.received.length = 0;
    carol = await t.createUser('carol');
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('answers mail.not_configured while SMTP is not configured, Error sending email when the server refuses', async () => {
    const res = problemOf(await t.request('POST', '/api/v1/auth/email/init', { cookie: carol }));
    expect(res).toMatchObject({ status: 400, code: 'mail.not_configured' });
    const refusing = await startSmtpServer({ auth: { user: 'u', pass: 'p' } });
    await new SettingsRepo(t.database.db).update({
      smtpServer: '127.0.0.1',
      smtpPort: refusing.port,
      smtpEncryption: 'none',
      smtpSender: 'vpn@example.com',
    }); // the server wants a login Palisade does not give

    try {
      const failed = problemOf(await t.request('POST', '/api/v1/auth/email/init', { cookie: carol }));
      expect(failed).toMatchObject({ status: 400, code: 'mail.send_failed' });
      expect(await t.database.db.select().from(mfaChallenges)).toEqual([]); // no resend wait for a code never sent
    } finally {
      await refusing.close();
    }
  });

  it('enables with the mailed code, then signs in with a new mailed code; the code is stored hashed', async () => {
    await configure();
    expect((await t.request('POST', '/api/v1/auth/email/init', { cookie: carol })).statusCode).toBe(204);
    const code = await codeOfMail(1);
    const [stored] = await t.database.db.select().from(mfaChallenges);
    expect(stored?.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.secret).not.toContain(code);
    const enabled = await t.request('POST', '/api/v1/auth/email', { cookie: carol, payload: { code } });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().recovery_codes).toHaveLength(10);
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'carol'));
    expect(row).toMatchObject({ mfaEnabled: true, mfaMethod: 'email' });

    const pending = await passwordStep();
    expect((await t.request('GET', '/api/v1/auth/email', { cookie: pending })).statusCode).toBe(204);
    const signInCode = await codeOfMail(2);
    const ok = await t.request('POST', '/api/v1/auth/email/verify', { cookie: pending, payload: { code: signInCode } });
    expect(ok.statusCode).toBe(200);
    expect((await t.request('GET', '/api/v1/me', { cookie: cookieOf(ok) })).statusCode).toBe(200);

    // Used once: the same code again is refused.
    const again = await passwordStep();
    expect(problemOf(await t.request('POST', '/api/v1/auth/email/verify', { cookie: again, payload: { code: signInCode } })).code).toBe(
      'auth.invalid_code',
    );
  });

  it('refuses an expired code and a wrong one; resending within 30 seconds is a 429', async () => {
    await configure();
    await enableEmail();
    const pending = await passwordStep();
    expect((await t.request('GET', '/api/v1/auth/email', { cookie: pending })).statusCode).toBe(204);
    const too = problemOf(await t.request('GET', '/api/v1/auth/email', { cookie: pending }));
    expect(too).toMatchObject({ status: 429, code: 'mfa.email_too_soon' });
    const code = await codeOfMail(2);
    const wrong = code === '000000' ? '000001' : '000000';
    expect(problemOf(await t.request('POST', '/api/v1/auth/email/verify', { cookie: pending, payload: { code: wrong } })).code).toBe(
      'auth.invalid_code',
    );
    await t.database.db.update(mfaChallenges).set({ expiresAt: new Date(Date.now() - 1000) });
    expect(problemOf(await t.request('POST', '/api/v1/auth/email/verify', { cookie: pending, payload: { code } })).code).toBe(
      'auth.invalid_code',
    );
    // After 30 seconds a new code can be sent, and it works.
    await t.database.db.update(mfaChallenges).set({ sentAt: new Date(Date.now() - 31_000) });
    expect((await t.request('GET', '/api/v1/auth/email', { cookie: pending })).statusCode).toBe(204);
    const fresh = await codeOfMail(3);
    expect((await t.request('POST', '/api/v1/auth/email/verify', { cookie: pending, payload: { code: fresh } })).statusCode).toBe(200);
  });

  it('sends sign-in codes only to a pending-MFA session of a user with email codes; DELETE disables the method', async () => {
    await configure();
    expect((await t.request('GET', '/api/v1/auth/email')).statusCode).toBe(401);
    expect((await t.request('GET', '/api/v1/auth/email', { cookie: carol })).statusCode).toBe(401);
    await enableEmail();
    expect(problemOf(await t.request('POST', '/api/v1/auth/email/init', { cookie: carol })).code).toBe('mfa.method_enabled');
    expect((await t.request('DELETE', '/api/v1/auth/email', { cookie: carol })).statusCode).toBe(204);
    const [row] = await t.database.db.select().from(users).where(eq(users.username, 'carol'));
    expect(row).toMatchObject({ mfaEnabled: false, mfaMethod: null });
  });
});
