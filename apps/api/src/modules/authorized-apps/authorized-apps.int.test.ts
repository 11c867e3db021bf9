import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, oauthClients } from '#src/db/schema/index.js';
import { SecretBox } from '#src/lib/crypto.js';
import { createTestApp, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { Browser } from '#test/oidc-fixtures.js';

const SECRET_KEY = 'authorized-apps-test-secret-key-0123456789';
const REDIRECT = 'http://localhost:9999/callback';

describe('Authorized apps: GET /oauth/apps/{username}, DELETE /user/{username}/oauth_app/{client_id}', () => {
  let t: TestApp;
  let issuer: string;
  let admin: string;
  const secrets = SecretBox.fromSecret(SECRET_KEY);

  beforeAll(async () => {
    t = await createTestApp({ SECRET_KEY });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    issuer = `http://127.0.0.1:${address.port}`;
    admin = await t.loginAdmin();
  });
  afterAll(async () => {
    await t.app.close();
  });

  async function registerApp(name: string) {
    const clientId = randomUUID().replaceAll('-', '');
    const secret = `secret-${randomUUID()}`;
    await t.database.db.insert(oauthClients).values({
      clientId,
      clientSecretEnc: secrets.encrypt(secret),
      name,
      redirectUris: [REDIRECT],
      scopes: ['openid', 'profile', 'email', 'phone', 'groups'],
    });
    const config = await client.discovery(new URL(issuer), clientId, { client_secret: secret }, client.ClientSecretBasic(secret), {
      execute: [client.allowInsecureRequests],
    });
    return { clientId, config };
  }

  async function followToApp(browser: Browser, start: string): Promise<URL> {
    let next = start;
    for (let hops = 0; hops < 5; hops++) {
      if (next.startsWith(REDIRECT)) return new URL(next);
      const res = await browser.fetch(next);
      const location = res.headers.get('location');
      if (!location) throw new Error(`no redirect from ${next}: ${res.status} ${await res.text()}`);
      next = location;
    }
    throw new Error('too many redirects');
  }

  /** Authorization, console sign-in, consent (unless already granted) and the code exchange. */
  async function signIn(username: string, app: Awaited<ReturnType<typeof registerApp>>, scope: string) {
    const browser = new Browser(issuer);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(app.config, {
      redirect_uri: REDIRECT,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const started = await browser.fetch(url.href);
    const uid = new URL(started.headers.get('location') ?? '', issuer).searchParams.get('interaction') ?? '';
    const login = await browser.fetch('/api/v1/auth', { method: 'POST', json: { username, password: USER_PASSWORD } });
    expect(login.status).toBe(200);
    const next = ((await login.json()) as { url?: string }).url ?? '';
    const consentAsked = next.startsWith('/consent');
    let resume = next;
    if (consentAsked) {
      const decided = await browser.fetch(`/api/v1/oauth/authorize?interaction=${uid}&allow=true`, { method: 'POST' });
      expect(decided.status).toBe(200);
      resume = ((await decided.json()) as { url: string }).url;
    }
    const callback = await followToApp(browser, resume);
    const tokens = await client.authorizationCodeGrant(app.config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    return { tokens, consentAsked };
  }

  it('lists the apps a user authorized with their scopes; the user and admins may read it, other users may not', async () => {
    await t.newUser(admin, 'grantann');
    await t.newUser(admin, 'grantother');
    const grafana = await registerApp('Grafana');
    const wiki = await registerApp('Wiki');
    await signIn('grantann', grafana, 'openid profile email');
    await signIn('grantann', wiki, 'openid groups');
    const self = await t.login('grantann', USER_PASSWORD);
    const listed = await t.request('GET', '/api/v1/oauth/apps/grantann', { cookie: self });
    expect(listed.statusCode).toBe(200);
    const apps = listed.json() as { client_id: string; name: string; scopes: string[]; authorized_at: string }[];
    expect(apps.map((a) => [a.name, a.client_id, a.scopes])).toEqual([
      ['Grafana', grafana.clientId, ['openid', 'profile', 'email']],
      ['Wiki', wiki.clientId, ['openid', 'groups']],
    ]);
    expect(Math.abs(Date.parse(apps[0]?.authorized_at ?? '') - Date.now())).toBeLessThan(60_000);
    expect((await t.request('GET', '/api/v1/oauth/apps/grantann', { cookie: admin })).json()).toEqual(apps);
    const other = await t.login('grantother', USER_PASSWORD);
    expect((await t.request('GET', '/api/v1/oauth/apps/grantann', { cookie: other })).statusCode).toBe(403);
    expect((await t.request('GET', '/api/v1/oauth/apps/grantother', { cookie: other })).json()).toEqual([]);
    expect((await t.request('GET', '/api/v1/oauth/apps/nobodyhere', { cookie: admin })).statusCode).toBe(404);
  });

  it('revoking ends the refresh and access tokens at once, records the event, and the next sign-in asks for consent again', async () => {
    await t.newUser(admin, 'grantbea');
    const app = await registerApp('Nextcloud');
    const { tokens } = await signIn('grantbea', app, 'openid profile');
    const sub = String(tokens.claims()?.sub);
    // Sanity: the tokens work before the revocation, and a second sign-in skips consent.
    expect((await client.fetchUserInfo(app.config, tokens.access_token, sub)).sub).toBe(sub);
    const again = await signIn('grantbea', app, 'openid profile');
    expect(again.consentAsked).toBe(false);

    const self = await t.login('grantbea', USER_PASSWORD);
    const revoked = await t.request('DELETE', `/api/v1/user/grantbea/oauth_app/${app.clientId}`, { cookie: self });
    expect(revoked.statusCode).toBe(204);

    await expect(client.fetchUserInfo(app.config, tokens.access_token, sub)).rejects.toBeTruthy();
    await expect(client.fetchUserInfo(app.config, again.tokens.access_token, sub)).rejects.toBeTruthy();
    await expect(client.refreshTokenGrant(app.config, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(app.config, again.tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await t.request('GET', '/api/v1/oauth/apps/grantbea', { cookie: self })).json()).toEqual([]);

    const recorded = await t.database.db
      .select({ type: events.type, objectId: events.objectId, subject: events.subjectUserId })
      .from(events)
      .where(eq(events.type, 'oauth_app.authorization_revoked'));
    expect(recorded.map((e) => e.objectId)).toEqual([app.clientId]);

    const third = await signIn('grantbea', app, 'openid profile');
    expect(third.consentAsked).toBe(true);
    expect((await t.request('DELETE', `/api/v1/user/grantbea/oauth_app/${app.clientId}`, { cookie: admin })).statusCode).toBe(204);
  });

  it('answers 404 for an app the user has not authorized, 403 for another user, 404 for an unknown user', async () => {
    await t.newUser(admin, 'grantcid');
    await t.newUser(admin, 'grantdee');
    const app = await registerApp('Gitea');
    await signIn('grantcid', app, 'openid');
    const dee = await t.login('grantdee', USER_PASSWORD);
    const notAuthorized = await t.request('DELETE', `/api/v1/user/grantdee/oauth_app/${app.clientId}`, { cookie: dee });
    expect(notAuthorized.statusCode).toBe(404);
    expect(notAuthorized.json()).toMatchObject({ code: 'authorized_app.not_found' });
    expect((await t.request('DELETE', `/api/v1/user/grantcid/oauth_app/${app.clientId}`, { cookie: dee })).statusCode).toBe(403);
    expect((await t.request('DELETE', `/api/v1/user/ghost/oauth_app/${app.clientId}`, { cookie: admin })).statusCode).toBe(404);
    // The other user's refusal left the grant in place.
    const cid = await t.login('grantcid', USER_PASSWORD);
    expect((await t.request('GET', '/api/v1/oauth/apps/grantcid', { cookie: cid })).json()).toHaveLength(1);
  });
});
