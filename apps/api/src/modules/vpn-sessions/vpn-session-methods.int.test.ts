import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '#src/modules/mfa/webauthn/soft-authenticator.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { eventsAfter, lastEventId } from '#test/event-rows.js';
import { createTestApp, problemOf, resetDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { enableTotp, totpCode, wrongCode } from '#test/mfa-fixtures.js';
import { createLocation, newKey } from '#test/network-fixtures.js';
import { bodyOf, startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';

const ORIGIN = 'http://localhost:8080';

/** A VPN session of an MFA-protected location finished with each second factor (issue 10 §4). */
describe('VPN session MFA with any method', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let carol: string;
  let start: Record<string, unknown>;

  const post = (url: string, payload: unknown) => t.request('POST', `/api/v1/vpn_session/${url}`, { cookie: carol, payload });
  const mailedCode = async (n: number) => {
    const mails = await smtp.waitFor(n, 15_000);
    const code = /\b(\d{6})\b/.exec(bodyOf(mails[n - 1]?.raw ?? ''))?.[1];
    if (!code) throw new Error('no code in the mail');
    return code;
  };
  const startedMethod = async (since: number) =>
    (await eventsAfter(t.database.db, since)).find((e) => e.type === 'vpn_session.started')?.details?.mfa_method;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ PUBLIC_URL: ORIGIN });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    smtp.received.length = 0;
    const admin = await t.loginAdmin();
    const location = await createLocation(t.app, admin, { name: 'secure', address: ['10.120.0.1/24'], mfa_enabled: true });
    carol = await t.createUser('carol');
    const key = newKey();
    expect(
      (await t.request('POST', '/api/v1/device/carol', { cookie: carol, payload: { name: 'laptop', wireguard_pubkey: key } })).statusCode,
    ).toBe(201);
    start = { location_id: location.id, device_pubkey: key };
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('names every method without one, refuses a method not enabled, and defaults to the enabled one', async () => {
    const none = problemOf(await post('start', start));
    expect(none).toMatchObject({ status: 400, code: 'vpn_session.mfa_not_enabled' });
    expect(none.body.detail).toMatch(/authenticator app, email codes or a security key/);
    await enableTotp(t, carol);
    const email = problemOf(await post('start', { ...start, method: 'email' }));
    expect(email).toMatchObject({ status: 400, code: 'vpn_session.method_not_enabled' });
    expect(email.body.errors).toEqual([expect.objectContaining({ path: 'method' })]);
    const res = await post('start', start);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ method: 'totp', methods: ['totp'] });
    expect(res.json().webauthn).toBeUndefined();
  });

  it('TOTP: a wrong code leaves the challenge, the right code then starts the session once', async () => {
    const { secret } = await enableTotp(t, carol);
    const since = await lastEventId(t.database.db);
    const { challenge } = (await post('start', start)).json();
    expect(problemOf(await post('finish', { challenge, code: wrongCode(secret) }))).toMatchObject({
      status: 400,
      code: 'auth.invalid_code',
    });
    const credential = problemOf(
      await post('finish', { challenge, credential: { id: 'x', rawId: 'x', type: 'public-key', response: {} } }),
    );
    expect(credential).toMatchObject({ status: 400, code: 'validation.failed' });
    expect(credential.body.errors).toEqual([expect.objectContaining({ path: 'code', code: 'required' })]);
    const done = await post('finish', { challenge, code: totpCode(secret, 1) });
    expect(done.statusCode).toBe(201);
    expect(done.json().session).toMatchObject({ location_name: 'secure', ended_at: null });
    expect(await startedMethod(since)).toBe('totp');
    expect(problemOf(await post('finish', { challenge, code: totpCode(secret, 1) }))).toMatchObject({
      code: 'vpn_session.challenge_invalid',
    });
  });

  it('email: start mails a code (resend limit 30 s), a wrong code then the mailed one starts the session', async () => {
    await new SettingsRepo(t.database.db).update({
      smtpServer: '127.0.0.1',
      smtpPort: smtp.port,
      smtpEncryption: 'none',
      smtpSender: 'vpn@example.com',
    });
    expect((await t.request('POST', '/api/v1/auth/email/init', { cookie: carol })).statusCode).toBe(204);
    const enabled = await t.request('POST', '/api/v1/auth/email', { cookie: carol, payload: { code: await mailedCode(1) } });
    expect(enabled.statusCode).toBe(200);
    const since = await lastEventId(t.database.db);

    const res = await post('start', start);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ method: 'email', methods: ['email'] });
    const code = await mailedCode(2);
    expect(problemOf(await post('start', start))).toMatchObject({ status: 429, code: 'mfa.email_too_soon' });
    const { challenge } = res.json();
    const wrong = code === '000000' ? '000001' : '000000';
    expect(problemOf(await post('finish', { challenge, code: wrong }))).toMatchObject({ status: 400, code: 'auth.invalid_code' });
    const done = await post('finish', { challenge, code });
    expect(done.statusCode).toBe(201);
    expect(Buffer.from(done.json().preshared_key, 'base64')).toHaveLength(32);
    expect(await startedMethod(since)).toBe('email');
  });

  it('email: answers mail.not_configured while SMTP is not set', async () => {
    await new SettingsRepo(t.database.db).update({
      smtpServer: '127.0.0.1',
      smtpPort: smtp.port,
      smtpEncryption: 'none',
      smtpSender: 'a@example.com',
    });
    await t.request('POST', '/api/v1/auth/email/init', { cookie: carol });
    await t.request('POST', '/api/v1/auth/email', { cookie: carol, payload: { code: await mailedCode(1) } });
    await new SettingsRepo(t.database.db).update({ smtpServer: '' });
    expect(problemOf(await post('start', start))).toMatchObject({ status: 400, code: 'mail.not_configured' });
  });

  it('security key: start answers assertion options, a wrong assertion then the right one starts the session', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const options = (await t.request('POST', '/api/v1/auth/webauthn/init', { cookie: carol })).json();
    const registered = await t.request('POST', '/api/v1/auth/webauthn/finish', {
      cookie: carol,
      payload: { name: 'Blue', response: key.register(options) },
    });
    expect(registered.statusCode).toBe(201);
    await enableTotp(t, carol); // webauthn stays the default (the first method)
    const since = await lastEventId(t.database.db);

    const res = await post('start', start);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ method: 'webauthn', methods: ['totp', 'webauthn'] });
    const { challenge, webauthn } = res.json();
    expect(webauthn.allowCredentials).toEqual([expect.objectContaining({ id: key.id })]);
    const code = problemOf(await post('finish', { challenge, code: '123456' }));
    expect(code).toMatchObject({ status: 400, code: 'validation.failed' });
    expect(code.body.errors).toEqual([expect.objectContaining({ path: 'credential', code: 'required' })]);
    const forged = key.authenticate({ challenge: 'bm90LXRoZS1jaGFsbGVuZ2U', rpId: webauthn.rpId });
    expect(problemOf(await post('finish', { challenge, credential: forged }))).toMatchObject({ status: 400, code: 'auth.invalid_code' });
    const done = await post('finish', { challenge, credential: key.authenticate(webauthn) });
    expect(done.statusCode).toBe(201);
    expect(await startedMethod(since)).toBe('webauthn');
  });

  it('wrong codes at finish lock the account like wrong passwords', async () => {
    const { secret } = await enableTotp(t, carol);
    const { challenge } = (await post('start', start)).json();
    for (let i = 1; i <= 5; i++) expect((await post('finish', { challenge, code: wrongCode(secret) })).statusCode).toBe(400);
    expect(problemOf(await post('finish', { challenge, code: totpCode(secret, 1) }))).toMatchObject({
      status: 429,
      code: 'auth.too_many_attempts',
    });
    const signIn = await t.request('POST', '/api/v1/auth', { payload: { username: 'carol', password: USER_PASSWORD } });
    expect(problemOf(signIn)).toMatchObject({ status: 429, code: 'auth.too_many_attempts' });
  });
});
