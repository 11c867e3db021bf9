import { Client } from 'ldapts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { createTestApp, problemOf, resetDatabase, type TestApp } from '#test/helpers.js';
import { startSmtpServer, type TestSmtpServer } from '#test/smtp-server.js';
import { type Slapd, startSlapd } from '#test/support/slapd.js';
import { cookieFrom, linkIn, mailParts, tokenOf, useSmtp } from './enrollment.test-support.js';

const ANN = { uid: 'ann', password: 'ann-Ldap-1', givenName: 'Ann', sn: 'Archer', mail: 'ann@corp.example' };
const BOB = { uid: 'bob', password: 'bob-Ldap-1', givenName: 'Bob', sn: 'Baker', mail: 'bob@corp.example' };
const NEW_PASSWORD = 'Ann-Reset-2!';

/**
 * docs/enrollment.md: an account linked to an LDAP entry keeps its password in LDAP, so the public
 * password reset and enrollment write the new password to the entry (as the LDAP service user); a
 * directory that refuses answers 400 `ldap.password_refused` and leaves the link usable.
 */
describe('password reset and enrollment of LDAP-linked accounts', () => {
  let t: TestApp;
  let slapd: Slapd;
  let smtp: TestSmtpServer;
  let admin: string;
  beforeAll(async () => {
    // The mail job sends what "Forgot password?" queues.
    [t, slapd, smtp] = await Promise.all([
      createTestApp({ PUBLIC_URL: 'https://vpn.example.com' }, { jobs: true }),
      startSlapd({ users: [ANN, BOB] }),
      startSmtpServer(),
    ]);
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    smtp.received.length = 0;
    admin = await t.loginAdmin();
    await useSmtp(t, admin, smtp);
    await bindAs(slapd.rootDn, slapd.rootPassword);
    // Ann's first sign-in creates her account, linked to her entry.
    await slapd.modify(`dn: ${slapd.userDn('ann')}\nchangetype: modify\nreplace: userPassword\nuserPassword: ${ANN.password}\n`);
    expect((await signIn('ann', ANN.password)).statusCode).toBe(200);
    expect(await new UsersRepo(t.database.db).findByUsername('ann')).toMatchObject({ ldapDn: slapd.userDn('ann'), passwordHash: null });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), slapd?.stop(), smtp?.close()]);
  });

  /** LDAP on, with `dn` as the service user that writes passwords. */
  async function bindAs(dn: string, password: string) {
    const res = await t.request('PATCH', '/api/v1/settings', {
      cookie: admin,
      payload: {
        ldap_enabled: true,
        ldap_url: slapd.url,
        ldap_bind_username: dn,
        ldap_bind_password: password,
        ldap_user_search_base: slapd.peopleBase,
        ldap_group_search_base: slapd.groupsBase,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const signIn = (username: string, password: string) => t.request('POST', '/api/v1/auth', { payload: { username, password } });
  /** Whether slapd itself accepts a bind as the entry with this password. */
  async function slapdBinds(uid: string, password: string): Promise<boolean> {
    const client = new Client({ url: slapd.url, timeout: 10_000, connectTimeout: 10_000 });
    try {
      await client.bind(slapd.userDn(uid), password);
      return true;
    } catch {
      return false;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
  const finish = (token: string, password = NEW_PASSWORD) =>
    t.request('POST', '/api/v1/password_reset/finish', { payload: { token, password }, remoteAddress: '203.0.113.30' });
  const check = (token: string) => t.request('POST', '/api/v1/password_reset/start', { payload: { token }, remoteAddress: '203.0.113.30' });

  it('"Forgot password?" sets the new password in LDAP: slapd binds with it and Palisade signs in with it', async () => {
    const asked = await t.request('POST', '/api/v1/password_reset/request', {
      payload: { email: ANN.mail },
      remoteAddress: '203.0.113.30',
    });
    expect(asked.statusCode).toBe(202);
    const [mail] = await smtp.waitFor(1);
    const token = tokenOf(linkIn(mailParts(mail?.raw ?? '')['text/plain'] ?? ''));
    const done = await finish(token);
    expect(done.statusCode, done.body).toBe(204);

    expect(await slapdBinds('ann', NEW_PASSWORD)).toBe(true);
    expect(await slapdBinds('ann', ANN.password)).toBe(false);
    expect((await signIn('ann', NEW_PASSWORD)).statusCode).toBe(200);
    expect((await signIn('ann', ANN.password)).statusCode).toBe(401);
    // No local copy: the password lives in LDAP only.
    expect((await new UsersRepo(t.database.db).findByUsername('ann'))?.passwordHash).toBeNull();
  });

  it('a directory that refuses the write answers 400 ldap.password_refused and the link still works afterwards', async () => {
    const sent = await t.request('POST', '/api/v1/user/ann/reset_password', { cookie: admin, payload: {} });
    expect(sent.statusCode, sent.body).toBe(200);
    const [mail] = await smtp.waitFor(1);
    const token = tokenOf(linkIn(mailParts(mail?.raw ?? '')['text/plain'] ?? ''));

    // Bob may bind and read, but the server's ACL lets nobody but Ann write her password.
    await bindAs(slapd.userDn('bob'), BOB.password);
    const refused = problemOf(await finish(token));
    expect(refused).toMatchObject({ status: 400, code: 'ldap.password_refused' });
    expect(refused.body.detail).toMatch(/^The directory \(LDAP\) did not accept the new password: .*LDAP result code 50/);
    expect(await slapdBinds('ann', ANN.password)).toBe(true);
    expect((await check(token)).statusCode).toBe(200);

    await bindAs(slapd.rootDn, slapd.rootPassword);
    expect((await finish(token)).statusCode).toBe(204);
    expect(await slapdBinds('ann', NEW_PASSWORD)).toBe(true);
  });

  it('enrollment of a linked account writes the password to LDAP, counts it as set, and the person signs in with it', async () => {
    const started = await t.request('POST', '/api/v1/user/ann/start_enrollment', { cookie: admin, payload: { send_email: false } });
    expect(started.statusCode, started.body).toBe(200);
    const opened = await t.request('POST', '/api/v1/enrollment/start', {
      payload: { token: started.json().token },
      remoteAddress: '203.0.113.31',
    });
    expect(opened.json()).toMatchObject({ password_set: false });
    const cookie = cookieFrom(opened.headers['set-cookie'], 'palisade_enrollment');
    const step = (url: string, payload: unknown) => t.request('POST', url, { cookie, payload, remoteAddress: '203.0.113.31' });

    expect(problemOf(await step('/api/v1/enrollment/finish', {})).code).toBe('enrollment.password_required');
    await bindAs(slapd.userDn('bob'), BOB.password);
    expect(problemOf(await step('/api/v1/enrollment/password', { password: NEW_PASSWORD })).code).toBe('ldap.password_refused');
    expect((await t.request('GET', '/api/v1/enrollment/session', { cookie, remoteAddress: '203.0.113.31' })).json()).toMatchObject({
      password_set: false,
    });
    await bindAs(slapd.rootDn, slapd.rootPassword);
    expect((await step('/api/v1/enrollment/password', { password: NEW_PASSWORD })).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/enrollment/session', { cookie, remoteAddress: '203.0.113.31' })).json()).toMatchObject({
      password_set: true,
    });
    expect(await slapdBinds('ann', NEW_PASSWORD)).toBe(true);
    expect((await step('/api/v1/enrollment/finish', {})).statusCode).toBe(200);
    expect((await signIn('ann', NEW_PASSWORD)).statusCode).toBe(200);
  });
});
