import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { problemOf, USER_PASSWORD } from '#test/helpers.js';
import { useMailTestApp } from '#test/mail-test-app.js';
import { subjectOf } from '#test/smtp-server.js';
import { linkIn, mailParts, tokenOf } from './enrollment.test-support.js';

const NEW_PASSWORD = 'R3set!password';

describe('password reset', () => {
  // The mail job sends what "Forgot password?" queues.
  const ctx = useMailTestApp({ jobs: true });

  const forgot = (email: string, ip = '203.0.113.9', locale?: string) =>
    ctx.t.request('POST', '/api/v1/password_reset/request', { payload: { email, ...(locale ? { locale } : {}) }, remoteAddress: ip });
  const check = (token: string, ip = '203.0.113.9') =>
    ctx.t.request('POST', '/api/v1/password_reset/start', { payload: { token }, remoteAddress: ip });
  const finish = (token: string, password = NEW_PASSWORD) =>
    ctx.t.request('POST', '/api/v1/password_reset/finish', { payload: { token, password }, remoteAddress: '203.0.113.9' });
  const tokenCount = async () =>
    ((await ctx.t.database.db.execute(sql`select count(*)::int as n from user_tokens`)) as unknown as { rows: { n: number }[] }).rows[0]?.n;

  it('an admin mails a reset link in the chosen language; it works once, ends the sessions and replaces the password', async () => {
    await ctx.t.newUser(ctx.admin, 'vera', { first_name: 'Vera' });
    const vera = await ctx.t.login('vera', USER_PASSWORD);
    expect(problemOf(await ctx.t.request('POST', '/api/v1/user/vera/reset_password', { cookie: ctx.admin, payload: {} }))).toMatchObject({
      status: 400,
      code: 'mail.not_configured',
    });
    await ctx.useSmtp();
    expect(problemOf(await ctx.t.request('POST', '/api/v1/user/vera/reset_password', { cookie: vera, payload: {} })).status).toBe(403);
    const sent = await ctx.t.request('POST', '/api/v1/user/vera/reset_password', { cookie: ctx.admin, payload: { locale: 'ko' } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().email).toBe('vera@example.com');
    const minutes = (Date.parse(sent.json().expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
    const [mail] = await ctx.smtp.waitFor(1);
    expect(subjectOf(mail?.raw ?? '')).toBe('Palisade: 비밀번호 재설정');
    const text = mailParts(mail?.raw ?? '')['text/plain'] ?? '';
    expect(text).toContain('Vera님');
    const link = linkIn(text);
    expect(link.startsWith('https://vpn.example.com/password-reset?token=')).toBe(true);
    const token = tokenOf(link);

    const info = await check(token);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toMatchObject({ username: 'vera', first_name: 'Vera' });
    expect(problemOf(await finish(token, 'weak')).code).toBe('validation.failed');
    expect((await finish(token)).statusCode).toBe(204);
    expect((await ctx.t.request('GET', '/api/v1/me', { cookie: vera })).statusCode).toBe(401);
    await ctx.t.login('vera', NEW_PASSWORD);
    expect((await ctx.t.request('POST', '/api/v1/auth', { payload: { username: 'vera', password: USER_PASSWORD } })).statusCode).toBe(401);
    // Spent.
    expect(problemOf(await check(token))).toMatchObject({ status: 400, code: 'password_reset.token_invalid' });
    expect(problemOf(await finish(token, 'An0ther!pass'))).toMatchObject({ status: 400, code: 'password_reset.token_invalid' });
  });

  it('"Forgot password?" answers alike for a known, an unknown and a disabled address; only the known one gets a link', async () => {
    await ctx.useSmtp();
    await ctx.t.newUser(ctx.admin, 'walt', { first_name: 'Walt' });
    await ctx.t.newUser(ctx.admin, 'xena');
    await ctx.t.database.db.execute(sql`update users set is_active = false where username = 'xena'`);
    const known = await forgot('WALT@Example.com', '203.0.113.9', 'pl');
    const unknown = await forgot('nobody@example.com');
    const disabled = await forgot('xena@example.com');
    for (const res of [known, unknown, disabled]) {
      expect(res.statusCode).toBe(202);
      expect(res.body).toBe(known.body);
    }
    const headers = (res: typeof known) =>
      Object.keys(res.headers)
        .filter((h) => h !== 'date' && h !== 'x-request-id')
        .sort();
    expect(headers(unknown)).toEqual(headers(known));
    expect(await tokenCount()).toBe(1);
    const [mail] = await ctx.smtp.waitFor(1);
    expect(mail?.to).toEqual(['walt@example.com']);
    expect(subjectOf(mail?.raw ?? '')).toBe('Palisade: zresetuj hasło');
    const token = tokenOf(linkIn(mailParts(mail?.raw ?? '')['text/plain'] ?? ''));
    expect((await finish(token)).statusCode).toBe(204);
    await ctx.t.login('walt', NEW_PASSWORD);
    // Nothing more arrives for the unknown and the disabled address.
    expect(ctx.smtp.received).toHaveLength(1);
  });

  it('a newer link revokes the older; an expired link and an enrollment token are refused alike', async () => {
    await ctx.useSmtp();
    await ctx.t.newUser(ctx.admin, 'yuri');
    await ctx.t.request('POST', '/api/v1/user/yuri/reset_password', { cookie: ctx.admin, payload: {} });
    await ctx.t.request('POST', '/api/v1/user/yuri/reset_password', { cookie: ctx.admin, payload: {} });
    const mails = await ctx.smtp.waitFor(2);
    const [first, second] = mails.map((m) => tokenOf(linkIn(mailParts(m.raw)['text/plain'] ?? '')));
    expect(problemOf(await check(first ?? ''))).toMatchObject({ status: 400, code: 'password_reset.token_invalid' });
    expect((await check(second ?? '')).statusCode).toBe(200);
    await ctx.t.database.db.execute(sql`update user_tokens set expires_at = now() - interval '1 second'`);
    expect(problemOf(await check(second ?? '')).code).toBe('password_reset.token_invalid');

    const enrollment = await ctx.t.request('POST', '/api/v1/user/yuri/start_enrollment', {
      cookie: ctx.admin,
      payload: { send_email: false, re_enroll: true },
    });
    expect(problemOf(await check(enrollment.json().token)).code).toBe('password_reset.token_invalid');
  });

  it('rate limits the requests per client address and the redemption per token', async () => {
    await ctx.useSmtp();
    for (let i = 0; i < 60; i += 1) expect((await forgot(`x${i}@example.com`, '198.18.3.3')).statusCode).toBe(202);
    expect(problemOf(await forgot('x61@example.com', '198.18.3.3'))).toMatchObject({ status: 429, code: 'request.rate_limited' });
    expect((await forgot('x62@example.com', '198.18.3.4')).statusCode).toBe(202);

    for (let i = 0; i < 30; i += 1) expect((await check('same-token', `198.18.4.${i + 1}`)).statusCode).toBe(400);
    expect(problemOf(await check('same-token', '198.18.5.1'))).toMatchObject({ status: 429, code: 'request.rate_limited' });
  });
});
