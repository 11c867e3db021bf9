import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { problemOf, USER_PASSWORD } from '#test/helpers.js';
import { useMailTestApp } from '#test/mail-test-app.js';
import { subjectOf } from '#test/smtp-server.js';
import { cookieFrom, linkIn, mailParts, tokenOf } from './enrollment.test-support.js';

const NEW_PASSWORD = 'N3w!enrolled';

/**
 * docs/mail.md: mail to a user is written in the user's stored language (the console's language
 * they chose), and the request's `locale` is only the fallback for a user whose language is not known.
 */
describe('mail in the user language', () => {
  // The mail job sends what "Forgot password?" queues.
  const ctx = useMailTestApp({ jobs: true });

  const person = (username: string) => ({ username, first_name: 'Ola', last_name: 'Nowak', email: `${username}@example.com` });
  const languageOf = async (username: string) =>
    (await ctx.t.request('GET', `/api/v1/user/${username}`, { cookie: ctx.admin })).json().language;

  it('PUT /me/language stores the signed-in user language; the user payloads carry it; an admin sets or clears it in the user edit', async () => {
    await ctx.t.newUser(ctx.admin, 'ola');
    const ola = await ctx.t.login('ola', USER_PASSWORD);
    expect((await ctx.t.request('GET', '/api/v1/me', { cookie: ola })).json()).not.toHaveProperty('language');
    expect((await ctx.t.request('PUT', '/api/v1/me/language', { payload: { language: 'pl' } })).statusCode).toBe(401);
    expect(problemOf(await ctx.t.request('PUT', '/api/v1/me/language', { cookie: ola, payload: { language: 'de' } }))).toMatchObject({
      status: 400,
      code: 'validation.failed',
    });
    expect((await ctx.t.request('PUT', '/api/v1/me/language', { cookie: ola, payload: { language: 'pl' } })).statusCode).toBe(204);
    expect((await ctx.t.request('GET', '/api/v1/me', { cookie: ola })).json().language).toBe('pl');
    const list = await ctx.t.request('GET', '/api/v1/user?search=ola', { cookie: ctx.admin });
    expect(list.json().items.find((u: { username: string }) => u.username === 'ola')?.language).toBe('pl');
    // The same language again changes nothing and records nothing.
    expect((await ctx.t.request('PUT', '/api/v1/me/language', { cookie: ola, payload: { language: 'pl' } })).statusCode).toBe(204);
    const modified = (await ctx.t.database.db.execute(
      sql`select details from events where type = 'user.modified' and username = 'ola'`,
    )) as unknown as { rows: { details: { fields: string[] } }[] };
    expect(modified.rows.map((r) => r.details.fields)).toEqual([['language']]);

    const edit = (language: unknown) =>
      ctx.t.request('PUT', '/api/v1/user/ola', { cookie: ctx.admin, payload: { ...person('ola'), language } });
    expect((await edit('ko')).json().language).toBe('ko');
    expect(await languageOf('ola')).toBe('ko');
    // Left out: unchanged; null: not known.
    expect((await ctx.t.request('PUT', '/api/v1/user/ola', { cookie: ctx.admin, payload: person('ola') })).json().language).toBe('ko');
    expect((await edit(null)).json()).not.toHaveProperty('language');
    expect(problemOf(await edit('xx')).code).toBe('validation.failed');
  });

  it('a Polish user gets the enrollment mail and the welcome mail in Polish though the admin console asks for English', async () => {
    await ctx.useSmtp();
    await ctx.t.newUser(ctx.admin, 'ola', { password: undefined, first_name: 'Ola' });
    await ctx.t.request('PUT', '/api/v1/user/ola', { cookie: ctx.admin, payload: { ...person('ola'), language: 'pl' } });
    const started = await ctx.t.request('POST', '/api/v1/user/ola/start_enrollment', {
      cookie: ctx.admin,
      payload: { send_email: true, locale: 'en' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const [mail] = await ctx.smtp.waitFor(1);
    expect(subjectOf(mail?.raw ?? '')).toBe('Palisade: skonfiguruj swoje konto');
    const token = tokenOf(linkIn(mailParts(mail?.raw ?? '')['text/plain'] ?? ''));

    await ctx.t.request('PATCH', '/api/v1/settings', {
      cookie: ctx.admin,
      payload: { enrollment_welcome_message: 'Cześć!', enrollment_vpn_step_optional: true },
    });
    const opened = await ctx.t.request('POST', '/api/v1/enrollment/start', { payload: { token } });
    expect(opened.statusCode, opened.body).toBe(200);
    const cookie = cookieFrom(opened.headers['set-cookie'], 'palisade_enrollment');
    expect((await ctx.t.request('POST', '/api/v1/enrollment/password', { cookie, payload: { password: NEW_PASSWORD } })).statusCode).toBe(
      204,
    );
    const finished = await ctx.t.request('POST', '/api/v1/enrollment/finish', { cookie, payload: { locale: 'en' } });
    expect(finished.json()).toMatchObject({ welcome_email_sent: true });
    const welcome = (await ctx.smtp.waitFor(2))[1];
    expect(subjectOf(welcome?.raw ?? '')).toBe('Witamy w Palisade');
  });

  it('email codes of multi-factor authentication come in the user language', async () => {
    await ctx.useSmtp();
    await ctx.t.newUser(ctx.admin, 'ola');
    const ola = await ctx.t.login('ola', USER_PASSWORD);
    expect((await ctx.t.request('PUT', '/api/v1/me/language', { cookie: ola, payload: { language: 'ko' } })).statusCode).toBe(204);
    expect((await ctx.t.request('POST', '/api/v1/auth/email/init', { cookie: ola })).statusCode).toBe(204);
    const [mail] = await ctx.smtp.waitFor(1);
    expect(subjectOf(mail?.raw ?? '')).toMatch(/^Palisade: 인증 코드 \d{6}$/);
  });

  it('a Polish user gets the admin reset mail and the "Forgot password?" mail in Polish; a user of unknown language gets the request locale', async () => {
    await ctx.useSmtp();
    await ctx.t.newUser(ctx.admin, 'ola', { first_name: 'Ola' });
    await ctx.t.request('PUT', '/api/v1/user/ola', { cookie: ctx.admin, payload: { ...person('ola'), language: 'pl' } });
    await ctx.t.newUser(ctx.admin, 'kim', { first_name: 'Kim' });

    const sent = await ctx.t.request('POST', '/api/v1/user/ola/reset_password', { cookie: ctx.admin, payload: { locale: 'en' } });
    expect(sent.statusCode, sent.body).toBe(200);
    const [byAdmin] = await ctx.smtp.waitFor(1);
    expect(subjectOf(byAdmin?.raw ?? '')).toBe('Palisade: zresetuj hasło');

    const forgot = (email: string, locale: string) =>
      ctx.t.request('POST', '/api/v1/password_reset/request', { payload: { email, locale }, remoteAddress: '203.0.113.20' });
    expect((await forgot('ola@example.com', 'en')).statusCode).toBe(202);
    const [, bySelf] = await ctx.smtp.waitFor(2);
    expect(bySelf?.raw).toContain('ola@example.com');
    expect(subjectOf(bySelf?.raw ?? '')).toBe('Palisade: zresetuj hasło');

    expect((await forgot('kim@example.com', 'ko')).statusCode).toBe(202);
    const [, , unknown] = await ctx.smtp.waitFor(3);
    expect(subjectOf(unknown?.raw ?? '')).toBe('Palisade: 비밀번호 재설정');
    expect(await languageOf('kim')).toBeUndefined();
  });
});
