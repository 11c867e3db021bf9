import { generateKeyPair } from '@palisade/wireguard';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { problemOf, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { createLocation } from '#test/network-fixtures.js';
import { useMailTestApp } from '#test/mail-test-app.js';
import { subjectOf } from '#test/smtp-server.js';
import { cookieFrom, linkIn, mailParts, tokenOf } from './enrollment.test-support.js';

const NEW_PASSWORD = 'N3w!enrolled';

/** Moves every token of `username` into the past. */
async function expireTokens(t: TestApp, username: string): Promise<void> {
  await t.database.db.execute(
    sql`update user_tokens set expires_at = now() - interval '1 second' where user_id = (select id from users where username = ${username})`,
  );
}

describe('enrollment', () => {
  const ctx = useMailTestApp();

  /** A user created without a password (the admin onboards them). */
  const newcomer = async (username: string) => {
    await ctx.t.newUser(ctx.admin, username, { password: undefined, first_name: 'Nora' });
  };
  const start = (username: string, payload: Record<string, unknown> = { send_email: false }, cookie = ctx.admin) =>
    ctx.t.request('POST', `/api/v1/user/${username}/start_enrollment`, { cookie, payload });
  const open = (token: string, ip = '203.0.113.7') =>
    ctx.t.request('POST', '/api/v1/enrollment/start', { payload: { token }, remoteAddress: ip });
  const step = (cookie: string, url: string, payload: unknown) =>
    ctx.t.request('POST', url, { cookie, payload, remoteAddress: '203.0.113.7' });
  const manualToken = async (username: string) => {
    const res = await start(username);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  };
  const flowCookie = async (token: string) => {
    const res = await open(token);
    expect(res.statusCode, res.body).toBe(200);
    return cookieFrom(res.headers['set-cookie'], 'palisade_enrollment');
  };

  it('manual enrollment: link once, welcome, password, device, finish; then the person signs in and the token is spent', async () => {
    await createLocation(ctx.t.app, ctx.admin, { name: 'Office' });
    await newcomer('nora');
    await ctx.t.request('PATCH', '/api/v1/settings', { cookie: ctx.admin, payload: { enrollment_welcome_message: '# Hi\n\nWelcome.' } });
    const res = await start('nora');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { token, url, expires_at } = res.json();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`https://vpn.example.com/enrollment?token=${token}`);
    const hours = (Date.parse(expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // Only the hash is stored.
    const stored = (await ctx.t.database.db.execute(sql`select token_hash from user_tokens`)) as unknown as {
      rows: { token_hash: string }[];
    };
    expect(stored.rows.map((r) => r.token_hash)).not.toContain(token);

    const opened = await open(token);
    expect(opened.statusCode, opened.body).toBe(200);
    const setCookie = String(opened.headers['set-cookie']);
    expect(setCookie).toMatch(/palisade_enrollment=.*Path=\/api\/v1\/enrollment.*HttpOnly.*SameSite=Strict/i);
    expect(opened.headers['set-cookie']).not.toContain('palisade_session');
    expect(opened.json()).toMatchObject({
      user: { username: 'nora', first_name: 'Nora' },
      welcome_message: '# Hi\n\nWelcome.',
      vpn_step_optional: true,
      password_set: false,
      devices_added: 0,
      locations: [{ name: 'Office' }],
    });
    const cookie = cookieFrom(opened.headers['set-cookie'], 'palisade_enrollment');
    // The flow cookie is not a console session.
    expect((await ctx.t.request('GET', '/api/v1/me', { cookie })).statusCode).toBe(401);

    const weak = await step(cookie, '/api/v1/enrollment/password', { password: 'short' });
    expect(problemOf(weak).code).toBe('validation.failed');
    expect((await step(cookie, '/api/v1/enrollment/password', { password: NEW_PASSWORD })).statusCode).toBe(204);
    const device = await step(cookie, '/api/v1/enrollment/device', { name: 'laptop', wireguard_pubkey: generateKeyPair().publicKey });
    expect(device.statusCode, device.body).toBe(201);
    expect(device.json().configs[0]).toMatchObject({ network_name: 'Office' });
    expect(device.json().configs[0].config).toContain('[Interface]');
    const session = await ctx.t.request('GET', '/api/v1/enrollment/session', { cookie });
    expect(session.json()).toMatchObject({ password_set: true, devices_added: 1 });

    const finished = await step(cookie, '/api/v1/enrollment/finish', {});
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json()).toEqual({ username: 'nora', welcome_email_sent: false });
    const user = await ctx.t.request('GET', '/api/v1/user/nora', { cookie: ctx.admin });
    expect(user.json()).toMatchObject({ enrolled: true, has_password: true });
    await ctx.t.login('nora', NEW_PASSWORD);

    // Spent: neither the link nor the cookie works again.
    expect(problemOf(await open(token))).toMatchObject({ status: 400, code: 'enrollment.token_invalid' });
    expect(problemOf(await step(cookie, '/api/v1/enrollment/password', { password: 'An0ther!pass' }))).toMatchObject({
      status: 400,
      code: 'enrollment.token_invalid',
    });
    const events = (await ctx.t.database.db.execute(
      sql`select type, username from events where type like 'enrollment.%' or type = 'device.added' order by id`,
    )) as unknown as { rows: { type: string; username: string }[] };
    expect(events.rows).toEqual([
      { type: 'enrollment.started', username: 'admin' },
      { type: 'enrollment.opened', username: 'nora' },
      { type: 'enrollment.password_set', username: 'nora' },
      { type: 'device.added', username: 'nora' },
      { type: 'enrollment.completed', username: 'nora' },
    ]);
  });

  it('a newer token revokes the older one; an expired token and a disabled account are refused alike', async () => {
    await newcomer('olga');
    const first = await manualToken('olga');
    const second = await manualToken('olga');
    expect(problemOf(await open(first))).toMatchObject({ status: 400, code: 'enrollment.token_invalid' });
    expect((await open(second)).statusCode).toBe(200);
    await expireTokens(ctx.t, 'olga');
    const expired = problemOf(await open(second));
    expect(expired).toMatchObject({ status: 400, code: 'enrollment.token_invalid' });
    expect(String(expired.body.detail)).toContain('Ask your administrator for a new one');
    expect(problemOf(await open('not-a-token'))).toMatchObject({ status: 400, code: 'enrollment.token_invalid' });

    const third = await manualToken('olga');
    const cookie = await flowCookie(third);
    await ctx.t.database.db.execute(sql`update users set is_active = false where username = 'olga'`);
    expect(problemOf(await open(third)).code).toBe('enrollment.token_invalid');
    expect(problemOf(await ctx.t.request('GET', '/api/v1/enrollment/session', { cookie })).code).toBe('enrollment.token_invalid');
    expect(problemOf(await ctx.t.request('GET', '/api/v1/enrollment/session')).status).toBe(400);
  });

  it('refuses to re-enroll a user who has a password unless the admin confirms; only admins start enrollment', async () => {
    await ctx.t.newUser(ctx.admin, 'pat');
    expect(problemOf(await start('pat'))).toMatchObject({ status: 409, code: 'enrollment.user_has_password' });
    expect((await start('pat', { send_email: false, re_enroll: true })).statusCode).toBe(200);
    expect(problemOf(await start('ghost'))).toMatchObject({ status: 404, code: 'user.not_found' });
    const pat = await ctx.t.login('pat', USER_PASSWORD);
    expect(problemOf(await start('pat', { send_email: false, re_enroll: true }, pat)).status).toBe(403);
    expect(problemOf(await start('pat', { send_email: 'yes' })).code).toBe('validation.failed');
    expect(problemOf(await start('pat', { send_email: false, re_enroll: false })).code).toBe('validation.failed');
  });

  it('a mandatory VPN step: finish needs the password first and a device', async () => {
    await newcomer('quinn');
    await ctx.t.request('PATCH', '/api/v1/settings', { cookie: ctx.admin, payload: { enrollment_vpn_step_optional: false } });
    const cookie = await flowCookie(await manualToken('quinn'));
    expect(problemOf(await step(cookie, '/api/v1/enrollment/finish', {}))).toMatchObject({
      status: 409,
      code: 'enrollment.password_required',
    });
    await step(cookie, '/api/v1/enrollment/password', { password: NEW_PASSWORD });
    expect(problemOf(await step(cookie, '/api/v1/enrollment/finish', {}))).toMatchObject({
      status: 409,
      code: 'enrollment.device_required',
    });
    await step(cookie, '/api/v1/enrollment/device', { name: 'phone', wireguard_pubkey: generateKeyPair().publicKey });
    expect((await step(cookie, '/api/v1/enrollment/finish', {})).statusCode).toBe(200);
  });

  it('with the WireGuard module off the device step is refused and the VPN step is optional whatever the setting', async () => {
    await newcomer('vic');
    await ctx.t.request('PATCH', '/api/v1/settings', {
      cookie: ctx.admin,
      payload: { enrollment_vpn_step_optional: false, wireguard_enabled: false },
    });
    const token = await manualToken('vic');
    expect((await open(token)).json().vpn_step_optional).toBe(true);
    const cookie = await flowCookie(token);
    const device = await step(cookie, '/api/v1/enrollment/device', { name: 'phone', wireguard_pubkey: generateKeyPair().publicKey });
    expect(problemOf(device)).toMatchObject({ status: 404, code: 'module.disabled' });
    await step(cookie, '/api/v1/enrollment/password', { password: NEW_PASSWORD });
    expect((await step(cookie, '/api/v1/enrollment/finish', {})).statusCode).toBe(200);
  });

  it('emails the enrollment link in the requested language; the link opens the flow; no SMTP means no token', async () => {
    await newcomer('rita');
    expect(problemOf(await start('rita', { send_email: true }))).toMatchObject({ status: 400, code: 'mail.not_configured' });
    expect(
      ((await ctx.t.database.db.execute(sql`select count(*)::int as n from user_tokens`)) as unknown as { rows: { n: number }[] }).rows[0]
        ?.n,
    ).toBe(0);

    await ctx.useSmtp();
    const res = await start('rita', { send_email: true, locale: 'pl', email: 'rita.private@example.org' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().token).toBeUndefined();
    expect(res.json()).toMatchObject({ email: 'rita.private@example.org' });
    const [mail] = await ctx.smtp.waitFor(1);
    expect(mail?.to).toEqual(['rita.private@example.org']);
    expect(subjectOf(mail?.raw ?? '')).toBe('Palisade: skonfiguruj swoje konto');
    const text = mailParts(mail?.raw ?? '')['text/plain'] ?? '';
    expect(text).toContain('Dzień dobry Nora');
    const link = linkIn(text);
    expect(link.startsWith('https://vpn.example.com/enrollment?token=')).toBe(true);
    expect((await open(tokenOf(link))).json().user.username).toBe('rita');
  });

  it('sends the welcome email at the end in the flow language, its Markdown rendered with raw HTML and script links inert', async () => {
    await ctx.useSmtp();
    const hostile =
      '# Welcome\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n[click](javascript:alert(3)) and [docs](https://docs.example.com)';
    await ctx.t.request('PATCH', '/api/v1/settings', { cookie: ctx.admin, payload: { enrollment_welcome_message: hostile } });
    await newcomer('sam');
    const cookie = await flowCookie(await manualToken('sam'));
    await step(cookie, '/api/v1/enrollment/password', { password: NEW_PASSWORD });
    const finished = await step(cookie, '/api/v1/enrollment/finish', { locale: 'ko' });
    expect(finished.json()).toEqual({ username: 'sam', welcome_email_sent: true });
    const [mail] = await ctx.smtp.waitFor(1);
    expect(mail?.to).toEqual(['sam@example.com']);
    expect(subjectOf(mail?.raw ?? '')).toBe('Palisade에 오신 것을 환영합니다');
    const parts = mailParts(mail?.raw ?? '');
    const html = parts['text/html'] ?? '';
    expect(html).toContain('<h1>Welcome</h1>');
    expect(html).toContain('<a href="https://docs.example.com">docs</a>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script|<img|javascript:alert\(3\)"|href="javascript/i);
    expect(parts['text/plain']).toContain('[docs](https://docs.example.com)');

    // Its own subject and body when the settings do not reuse the welcome message.
    ctx.smtp.received.length = 0;
    await ctx.t.request('PATCH', '/api/v1/settings', {
      cookie: ctx.admin,
      payload: {
        enrollment_use_welcome_message_as_email: false,
        enrollment_welcome_email: 'Your **VPN** is ready.',
        enrollment_welcome_email_subject: 'Ready',
      },
    });
    await newcomer('tom');
    const tom = await flowCookie(await manualToken('tom'));
    await step(tom, '/api/v1/enrollment/password', { password: NEW_PASSWORD });
    await step(tom, '/api/v1/enrollment/finish', {});
    const [second] = await ctx.smtp.waitFor(1);
    expect(subjectOf(second?.raw ?? '')).toBe('Ready');
    expect(mailParts(second?.raw ?? '')['text/html']).toContain('<strong>VPN</strong>');
  });

  it('rate limits redemption per token and per client address (429 before the token is looked at)', async () => {
    await newcomer('uma');
    const token = await manualToken('uma');
    for (let i = 0; i < 30; i += 1) expect((await open(token, `198.18.0.${i + 1}`)).statusCode).toBe(200);
    expect(problemOf(await open(token, '198.18.1.1'))).toMatchObject({ status: 429, code: 'request.rate_limited' });

    for (let i = 0; i < 60; i += 1) expect((await open(`guess-${i}`, '198.18.2.2')).statusCode).toBe(400);
    expect(problemOf(await open('guess-61', '198.18.2.2'))).toMatchObject({ status: 429, code: 'request.rate_limited' });
    // Another address is not affected.
    expect(problemOf(await open('guess-62', '198.18.2.3')).status).toBe(400);
  });
});
