import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthClients, users } from '#src/db/schema/index.js';
import { SecretBox } from '#src/lib/crypto.js';
import { createTestApp, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { enableTotp, totpCode } from '#test/mfa-fixtures.js';
import { Browser, verifyWithJwks } from '#test/oidc-fixtures.js';

const SECRET_KEY = 'oidc-flow-test-secret-key-0123456789abcdef';
const REDIRECT = 'http://localhost:9999/callback';

describe('OpenID provider: openid-client as the relying party', () => {
  let t: TestApp;
  let issuer: string;
  const secrets = SecretBox.fromSecret(SECRET_KEY);

  beforeAll(async () => {
    t = await createTestApp({ SECRET_KEY });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    issuer = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await t.app.close();
  });

  async function registerApp(options: { public?: boolean; scopes?: string[]; enabled?: boolean } = {}) {
    const clientId = randomUUID().replaceAll('-', '');
    const secret = options.public ? undefined : `secret-${randomUUID()}`;
    await t.database.db.insert(oauthClients).values({
      clientId,
      clientSecretEnc: secret ? secrets.encrypt(secret) : null,
      name: `App ${clientId.slice(0, 6)}`,
      redirectUris: [REDIRECT],
      scopes: options.scopes ?? ['openid', 'profile', 'email', 'phone', 'groups'],
      public: options.public ?? false,
      enabled: options.enabled ?? true,
    });
    const config = await client.discovery(
      new URL(issuer),
      clientId,
      secret ? { client_secret: secret } : {},
      secret ? client.ClientSecretBasic(secret) : client.None(),
      { execute: [client.allowInsecureRequests] },
    );
    return { clientId, secret, config };
  }

  async function newUser(username: string, extra: Record<string, unknown> = {}) {
    const admin = await t.loginAdmin();
    return t.newUser(admin, username, { phone: '+48123456789', ...extra });
  }

  /** Starts an authorization in `browser`; resolves to the interaction uid (the consent page's). */
  async function authorize(config: client.Configuration, browser: Browser, scope = 'openid profile email phone groups') {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const res = await browser.fetch(url.href);
    return { res, verifier, state, nonce, location: res.headers.get('location') ?? '' };
  }

  async function consoleLogin(browser: Browser, username: string) {
    const res = await browser.fetch('/api/v1/auth', { method: 'POST', json: { username, password: USER_PASSWORD } });
    return res;
  }

  /** Consent through the console API; resolves to the app's callback URL with code and state. */
  async function consent(browser: Browser, uid: string, allow = true): Promise<URL> {
    const decided = await browser.fetch(`/api/v1/oauth/authorize?interaction=${uid}&allow=${allow}`, { method: 'POST' });
    expect(decided.status, await decided.clone().text()).toBe(200);
    const { url } = (await decided.json()) as { url: string };
    return followToApp(browser, url);
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

  /** Authorization, console sign-in and consent; `granted`: the user consented to the app before. */
  async function signInFlow(username: string, app: Awaited<ReturnType<typeof registerApp>>, scope?: string, granted = false) {
    const browser = new Browser(issuer);
    const started = await authorize(app.config, browser, scope);
    expect(started.res.status).toBe(303);
    const uid = new URL(started.location, issuer).searchParams.get('interaction') ?? '';
    expect(started.location).toBe(`/consent?interaction=${uid}`);
    const verify = await browser.fetch('/api/v1/openid/verify', { method: 'POST', json: { interaction: uid } });
    expect(verify.status).toBe(200);
    expect(await verify.json()).toMatchObject({ client: { client_id: app.clientId }, login_required: true });
    const login = await consoleLogin(browser, username);
    expect(login.status).toBe(200);
    // API.md §2: the sign-in answer says where the waiting authorization continues: the consent
    // page, or straight back to the provider when the user already consented.
    const { url } = (await login.json()) as { url?: string };
    if (granted) expect(url).toBe(`${issuer}/api/v1/oidc/auth/${uid}`);
    else expect(url).toBe(`/consent?interaction=${uid}`);
    const callback = granted ? await followToApp(browser, url ?? '') : await consent(browser, uid);
    return { browser, callback, ...started, uid };
  }

  it('publishes discovery with the endpoints under /api/v1/oidc and the flows Palisade allows', async () => {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(issuer);
    expect(doc.authorization_endpoint).toBe(`${issuer}/api/v1/oidc/auth`);
    expect(doc.token_endpoint).toBe(`${issuer}/api/v1/oidc/token`);
    expect(doc.jwks_uri).toBe(`${issuer}/api/v1/oidc/jwks`);
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.grant_types_supported).not.toContain('client_credentials');
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'phone', 'groups']));
    const jwks = (await (await fetch(`${issuer}/api/v1/oidc/jwks`)).json()) as { keys: { alg: string; d?: string }[] };
    expect(jwks.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
  });

  it('signs a user in with code + PKCE: ID token verified against the JWKS, claims per scope, userinfo', async () => {
    const user = await newUser('oidcalice', { first_name: 'Alice', last_name: 'Smith' });
    const admin = await t.loginAdmin();
    for (const name of ['zeta-team', 'alpha-team']) {
      const made = await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name, members: ['oidcalice'] } });
      expect(made.statusCode).toBe(201);
    }
    const app = await registerApp();
    const flow = await signInFlow('oidcalice', app);
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const claims = tokens.claims();
    const verified = await verifyWithJwks(tokens.id_token ?? '', `${issuer}/api/v1/oidc/jwks`);
    expect(verified.header.alg).toBe('RS256');
    expect(verified.payload.iss).toBe(issuer);
    const [row] = await t.database.db
      .select({ sub: users.oidcSub })
      .from(users)
      .where(eq(users.id, Number(user.id)));
    expect(claims?.sub).toBe(row?.sub);
    expect(claims).toMatchObject({
      preferred_username: 'oidcalice',
      given_name: 'Alice',
      family_name: 'Smith',
      name: 'Alice Smith',
      email_verified: false,
      phone_number: '+48123456789',
      nonce: flow.nonce,
      aud: app.clientId,
    });
    expect(tokens.refresh_token).toBeTruthy();
    const info = await client.fetchUserInfo(app.config, tokens.access_token, row?.sub ?? '');
    expect(info).toMatchObject({ sub: row?.sub, preferred_username: 'oidcalice', groups: ['alpha-team', 'zeta-team'] });
  });

  it('releases only the claims of the requested scopes, and keeps sub when the username changes', async () => {
    await newUser('oidcbob');
    const app = await registerApp();
    const flow = await signInFlow('oidcbob', app, 'openid email');
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const claims: Record<string, unknown> = tokens.claims() ?? {};
    expect(claims.email).toBeTruthy();
    expect(claims.preferred_username).toBeUndefined();
    expect(claims.phone_number).toBeUndefined();
    expect(claims.groups).toBeUndefined();
    await t.database.db.execute(sql`update users set username = 'oidcbobby' where username = 'oidcbob'`);
    const info = await client.fetchUserInfo(app.config, tokens.access_token, String(claims.sub));
    expect(info.sub).toBe(claims.sub);
  });

  it('rotates refresh tokens: the old one is refused after use; revocation ends the new one', async () => {
    await newUser('oidccarol');
    const app = await registerApp();
    const flow = await signInFlow('oidccarol', app);
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const first = tokens.refresh_token ?? '';
    const refreshed = await client.refreshTokenGrant(app.config, first);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(first);
    await expect(client.refreshTokenGrant(app.config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    const again = await (async () => {
      // Reuse of a rotated token revokes the whole grant (the provider's reuse detection).
      try {
        return await client.refreshTokenGrant(app.config, refreshed.refresh_token ?? '');
      } catch (err) {
        return err;
      }
    })();
    expect(again).toMatchObject({ error: 'invalid_grant' });
  });

  it('one refresh token sent by several requests at once: one gets tokens, the rest invalid_grant, and the grant is revoked', async () => {
    await newUser('oidcrace');
    const app = await registerApp();
    const flow = await signInFlow('oidcrace', app);
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const basic = `Basic ${Buffer.from(`${app.clientId}:${app.secret}`).toString('base64')}`;
    const grant = async (refreshToken: string) => {
      const res = await fetch(`${issuer}/api/v1/oidc/token`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      });
      return { status: res.status, body: (await res.json()) as { refresh_token?: string; error?: string } };
    };
    const answers = await Promise.all([1, 2, 3, 4].map(() => grant(tokens.refresh_token ?? '')));
    const granted = answers.filter((a) => a.status === 200);
    expect(granted).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.error)).toEqual(['invalid_grant', 'invalid_grant', 'invalid_grant']);
    // A refresh token used twice revokes its grant: the winner's new token is refused too.
    expect(await grant(granted[0]?.body.refresh_token ?? '')).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('revocation: a revoked access token no longer reaches userinfo', async () => {
    await newUser('oidcdan');
    const app = await registerApp();
    const flow = await signInFlow('oidcdan', app);
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const sub = String(tokens.claims()?.sub);
    await client.tokenRevocation(app.config, tokens.access_token);
    await expect(client.fetchUserInfo(app.config, tokens.access_token, sub)).rejects.toBeTruthy();
  });

  it('a disabled app: its tokens are refused at once (userinfo, refresh, introspection)', async () => {
    await newUser('oidcqin');
    const app = await registerApp();
    const flow = await signInFlow('oidcqin', app);
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const sub = String(tokens.claims()?.sub);
    expect(await client.tokenIntrospection(app.config, tokens.access_token)).toMatchObject({ active: true, sub, client_id: app.clientId });
    await t.database.db.update(oauthClients).set({ enabled: false }).where(eq(oauthClients.clientId, app.clientId));
    await expect(client.fetchUserInfo(app.config, tokens.access_token, sub)).rejects.toBeTruthy();
    await expect(client.refreshTokenGrant(app.config, tokens.refresh_token ?? '')).rejects.toMatchObject({ status: 401 });
    await t.database.db.update(oauthClients).set({ enabled: true }).where(eq(oauthClients.clientId, app.clientId));
    await client.tokenRevocation(app.config, tokens.access_token);
    expect(await client.tokenIntrospection(app.config, tokens.access_token)).toMatchObject({ active: false });
  });

  it('a disabled user: refresh and userinfo fail at once', async () => {
    await newUser('oidcerin');
    const app = await registerApp();
    const flow = await signInFlow('oidcerin', app);
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const sub = String(tokens.claims()?.sub);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.username, 'oidcerin'));
    await expect(client.fetchUserInfo(app.config, tokens.access_token, sub)).rejects.toBeTruthy();
    await expect(client.refreshTokenGrant(app.config, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('a code is single use, and PKCE must match', async () => {
    await newUser('oidcfay');
    const app = await registerApp();
    const flow = await signInFlow('oidcfay', app);
    await expect(
      client.authorizationCodeGrant(app.config, flow.callback, {
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    const second = await signInFlow('oidcfay', app, undefined, true);
    const checks = { pkceCodeVerifier: second.verifier, expectedState: second.state, expectedNonce: second.nonce };
    await client.authorizationCodeGrant(app.config, second.callback, checks);
    await expect(client.authorizationCodeGrant(app.config, second.callback, checks)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('an expired code is refused (60 s lifetime)', async () => {
    await newUser('oidcgus');
    const app = await registerApp();
    const flow = await signInFlow('oidcgus', app);
    await t.database.db.execute(sql`update oidc_artifacts set expires_at = now() - interval '1 second' where model = 'AuthorizationCode'`);
    await expect(
      client.authorizationCodeGrant(app.config, flow.callback, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a wrong client secret, a disabled app and an unregistered redirect URI', async () => {
    const app = await registerApp();
    const wrong = await client.discovery(new URL(issuer), app.clientId, { client_secret: 'nope' }, client.ClientSecretBasic('nope'), {
      execute: [client.allowInsecureRequests],
    });
    await expect(client.refreshTokenGrant(wrong, 'whatever')).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: 'invalid_client' } }],
    });

    // The browser gets a page with a plain sentence, never a redirect to an address the app did not register.
    const page = async (url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { headers, redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      return res.text();
    };
    const bad = client.buildAuthorizationUrl(app.config, { redirect_uri: 'http://localhost:9999/other', scope: 'openid' }).href;
    const badPage = await page(bad);
    expect(badPage).toContain('This app asked to send you back to an address it has not registered with Palisade');
    expect(badPage).toContain('<code>invalid_redirect_uri</code>');
    expect(badPage).not.toContain('http://localhost:9999/other');
    expect(await page(bad, { 'accept-language': 'pl-PL,pl;q=0.9' })).toContain('poprosiła o odesłanie Cię pod adres');

    await t.database.db.update(oauthClients).set({ enabled: false }).where(eq(oauthClients.clientId, app.clientId));
    const authorizeUrl = client.buildAuthorizationUrl(app.config, { redirect_uri: REDIRECT, scope: 'openid' }).href;
    const disabled = await page(authorizeUrl);
    expect(disabled).toContain('This app is disabled: an administrator has turned off signing in to it with Palisade.');
    expect(disabled).toContain('<code>invalid_client</code>');
    expect(await page(authorizeUrl, { 'accept-language': 'ko' })).toContain('이 앱은 비활성화되어 있습니다.');

    await t.database.db.delete(oauthClients).where(eq(oauthClients.clientId, app.clientId));
    expect(await page(authorizeUrl)).toContain('This app is not registered with Palisade, so it cannot sign you in.');
  });

  it('refuses a scope the app is not registered for', async () => {
    const app = await registerApp({ scopes: ['openid', 'email'] });
    const browser = new Browser(issuer);
    const started = await authorize(app.config, browser, 'openid email groups');
    const location = new URL(started.location, issuer);
    expect(location.href.startsWith(REDIRECT)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe(started.state);
  });

  it('public apps must use PKCE', async () => {
    const app = await registerApp({ public: true });
    const browser = new Browser(issuer);
    const url = client.buildAuthorizationUrl(app.config, { redirect_uri: REDIRECT, scope: 'openid', state: 'st' });
    const res = await browser.fetch(url.href);
    const location = new URL(res.headers.get('location') ?? '', issuer);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('st');
  });

  it('Cancel returns access_denied to the app, with its state', async () => {
    await newUser('oidchal');
    const app = await registerApp();
    const browser = new Browser(issuer);
    const started = await authorize(app.config, browser);
    const uid = new URL(started.location, issuer).searchParams.get('interaction') ?? '';
    await consoleLogin(browser, 'oidchal');
    const callback = await consent(browser, uid, false);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(started.state);
  });

  it('consent commits with its event: when the event cannot be recorded, no grant is stored and the decision can be made again', async () => {
    await newUser('oidcada');
    const app = await registerApp();
    const browser = new Browser(issuer);
    const started = await authorize(app.config, browser);
    const uid = new URL(started.location, issuer).searchParams.get('interaction') ?? '';
    await consoleLogin(browser, 'oidcada');
    const grants = async () => {
      const rows = await t.database.db.execute(
        sql`select count(*)::int as n from oidc_artifacts where model = 'Grant' and client_id = ${app.clientId}`,
      );
      return (rows as unknown as { rows: { n: number }[] }).rows[0]?.n;
    };
    // The activity log refuses this app's authorization event (a stand-in for any failure after the grant was written).
    await t.database.db.execute(
      sql.raw(`create or replace function palisade_test_refuse_event() returns trigger language plpgsql as $$
      begin if new.type = 'oauth_app.authorized' and new.object_id = '${app.clientId}' then raise exception 'refused by test'; end if; return new; end $$`),
    );
    await t.database.db.execute(
      sql`create trigger palisade_test_refuse_event before insert on events for each row execute function palisade_test_refuse_event()`,
    );
    try {
      const decided = await browser.fetch(`/api/v1/oauth/authorize?interaction=${uid}&allow=true`, { method: 'POST' });
      expect(decided.status).toBe(500);
      expect(await grants()).toBe(0);
    } finally {
      await t.database.db.execute(sql`drop trigger palisade_test_refuse_event on events`);
      await t.database.db.execute(sql`drop function palisade_test_refuse_event()`);
    }
    const callback = await consent(browser, uid);
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(await grants()).toBe(1);
  });

  it('binds the interaction to the browser that started it', async () => {
    await newUser('oidcivy');
    const app = await registerApp();
    const owner = new Browser(issuer);
    const started = await authorize(app.config, owner);
    const uid = new URL(started.location, issuer).searchParams.get('interaction') ?? '';
    const other = new Browser(issuer);
    await consoleLogin(other, 'oidcivy');
    const verify = await other.fetch('/api/v1/openid/verify', { method: 'POST', json: { interaction: uid } });
    expect(verify.status).toBe(404);
    expect(((await verify.json()) as { code: string }).code).toBe('openid.interaction_not_found');
    const decided = await other.fetch(`/api/v1/oauth/authorize?interaction=${uid}&allow=true`, { method: 'POST' });
    expect(decided.status).toBe(404);
  });

  it('remembers consent: the next authorization with a console session finishes without the consent page', async () => {
    await newUser('oidcjoe');
    const app = await registerApp();
    const flow = await signInFlow('oidcjoe', app);
    flow.browser.forget('_session');
    flow.browser.forget('_session.sig');
    const again = await authorize(app.config, flow.browser);
    const callback = await followToApp(flow.browser, again.location);
    expect(callback.searchParams.get('code')).toBeTruthy();
  });

  it('response_mode=form_post: the page may post the code to the app (CSP without form-action, its script allowed by hash)', async () => {
    await newUser('oidcrex');
    const app = await registerApp();
    const flow = await signInFlow('oidcrex', app);
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(app.config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      response_mode: 'form_post',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'fp-state',
    });
    const res = await flow.browser.fetch(url.href);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`action="${REDIRECT}"`);
    expect(html).toContain('name="code"');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).not.toContain('form-action');
    expect(csp).toMatch(/script-src 'self' 'sha256-/);
  });

  it('prompt=consent and prompt=login show the pages again despite the earlier consent', async () => {
    await newUser('oidcsam');
    const app = await registerApp();
    const flow = await signInFlow('oidcsam', app);
    for (const prompt of ['consent', 'login']) {
      const url = client.buildAuthorizationUrl(app.config, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        prompt,
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const res = await flow.browser.fetch(url.href);
      const location = res.headers.get('location') ?? '';
      expect(location, prompt).toMatch(/^\/consent\?interaction=/);
      const uid = new URL(location, issuer).searchParams.get('interaction');
      const verify = await flow.browser.fetch('/api/v1/openid/verify', { method: 'POST', json: { interaction: uid } });
      expect(((await verify.json()) as { login_required: boolean }).login_required, prompt).toBe(prompt === 'login');
    }
  });

  it('a provider session does not outlive the console session: after sign-out the next authorization asks to sign in', async () => {
    await newUser('oidckim');
    const app = await registerApp();
    const flow = await signInFlow('oidckim', app);
    const silent = await authorize(app.config, flow.browser);
    expect(silent.location.startsWith(REDIRECT)).toBe(true);
    await flow.browser.fetch('/api/v1/auth/logout', { method: 'POST' });
    const after = await authorize(app.config, flow.browser);
    expect(after.location).toMatch(/^\/consent\?interaction=/);
  });

  it('a user with TOTP signs in through the MFA step; amr says mfa', async () => {
    await newUser('oidclee');
    const login = await t.login('oidclee', USER_PASSWORD);
    const { secret, recoveryCodes } = await enableTotp(t, login);
    const app = await registerApp();
    const browser = new Browser(issuer);
    const started = await authorize(app.config, browser);
    const uid = new URL(started.location, issuer).searchParams.get('interaction') ?? '';
    expect((await consoleLogin(browser, 'oidclee')).status).toBe(201);
    const step = await browser.fetch('/api/v1/auth/totp/verify', { method: 'POST', json: { code: totpCode(secret, 1) } });
    expect(step.status).toBe(200);
    expect(((await step.json()) as { url?: string }).url).toBe(`/consent?interaction=${uid}`);
    const callback = await consent(browser, uid);
    const tokens = await client.authorizationCodeGrant(app.config, callback, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
      expectedNonce: started.nonce,
    });
    expect(tokens.claims()?.amr).toEqual(['pwd', 'mfa']);
    // The app's next sign-in finishes at once from the same console session: still `mfa`.
    const again = await authorize(app.config, browser);
    const silent = await client.authorizationCodeGrant(app.config, await followToApp(browser, again.location), {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
      expectedNonce: again.nonce,
    });
    expect(silent.claims()?.amr).toEqual(['pwd', 'mfa']);
    // Signed out and in again through the MFA step (a recovery code): the step's answer finishes
    // the authorization at once (the app has consent), from the session the step just opened.
    await browser.fetch('/api/v1/auth/logout', { method: 'POST' });
    const third = await authorize(app.config, browser);
    const thirdUid = new URL(third.location, issuer).searchParams.get('interaction') ?? '';
    expect((await consoleLogin(browser, 'oidclee')).status).toBe(201);
    const recovery = await browser.fetch('/api/v1/auth/recovery', { method: 'POST', json: { code: recoveryCodes[0] } });
    expect(recovery.status).toBe(200);
    const { url } = (await recovery.json()) as { url?: string };
    expect(url).toBe(`${issuer}/api/v1/oidc/auth/${thirdUid}`);
    const resumed = await client.authorizationCodeGrant(app.config, await followToApp(browser, url ?? ''), {
      pkceCodeVerifier: third.verifier,
      expectedState: third.state,
      expectedNonce: third.nonce,
    });
    expect(resumed.claims()?.amr).toEqual(['pwd', 'mfa']);
  });

  it('a console session opened with the password before the user turned MFA on: amr says pwd only', async () => {
    await newUser('oidcquinn');
    const app = await registerApp();
    const browser = new Browser(issuer);
    expect((await consoleLogin(browser, 'oidcquinn')).status).toBe(200);
    const other = await t.login('oidcquinn', USER_PASSWORD);
    await enableTotp(t, other);
    const started = await authorize(app.config, browser);
    const uid = new URL(started.location, issuer).searchParams.get('interaction') ?? '';
    expect(started.location).toBe(`/consent?interaction=${uid}`);
    const tokens = await client.authorizationCodeGrant(app.config, await consent(browser, uid), {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
      expectedNonce: started.nonce,
    });
    expect(tokens.claims()?.amr).toEqual(['pwd']);
    // Finished at once from the console session (the app has consent): still no `mfa`.
    const again = await authorize(app.config, browser);
    const silent = await client.authorizationCodeGrant(app.config, await followToApp(browser, again.location), {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
      expectedNonce: again.nonce,
    });
    expect(silent.claims()?.amr).toEqual(['pwd']);
  });

  it('signing in again after sign-out: POST /auth answers the resume URL when the app already has consent', async () => {
    await newUser('oidcned');
    const app = await registerApp();
    const flow = await signInFlow('oidcned', app);
    await flow.browser.fetch('/api/v1/auth/logout', { method: 'POST' });
    const again = await authorize(app.config, flow.browser);
    expect(again.location).toMatch(/^\/consent\?interaction=/);
    const login = await consoleLogin(flow.browser, 'oidcned');
    const { url } = (await login.json()) as { url?: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/oidc\/auth\//);
    const callback = await followToApp(flow.browser, url ?? '');
    expect(callback.searchParams.get('state')).toBe(again.state);
    const tokens = await client.authorizationCodeGrant(app.config, callback, {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
      expectedNonce: again.nonce,
    });
    expect(tokens.access_token).toBeTruthy();
  });

  it('POST /auth without a waiting authorization carries no url', async () => {
    await newUser('oidcola');
    const res = await consoleLogin(new Browser(issuer), 'oidcola');
    expect(res.status).toBe(200);
    expect((await res.json()) as object).not.toHaveProperty('url');
  });

  it('deleting an app deletes its grants, codes and tokens', async () => {
    await newUser('oidcpat');
    const app = await registerApp();
    const flow = await signInFlow('oidcpat', app);
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const stored = async () => {
      const res = await t.database.db.execute(
        sql`select count(*)::int as n from oidc_artifacts where client_id = ${app.clientId} or grant_id in (select id from oidc_artifacts where client_id = ${app.clientId})`,
      );
      return (res as unknown as { rows: { n: number }[] }).rows[0]?.n;
    };
    expect(await stored()).toBeGreaterThan(0);
    const admin = await t.loginAdmin();
    expect((await t.request('DELETE', `/api/v1/oauth/${app.clientId}`, { cookie: admin })).statusCode).toBeLessThan(300);
    expect(await stored()).toBe(0);
    await expect(client.fetchUserInfo(app.config, tokens.access_token, String(tokens.claims()?.sub))).rejects.toBeTruthy();
  });

  it('end-session ends the provider session', async () => {
    await newUser('oidcmia');
    const app = await registerApp();
    const flow = await signInFlow('oidcmia', app);
    const tokens = await client.authorizationCodeGrant(app.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const endUrl = client.buildEndSessionUrl(app.config, { id_token_hint: tokens.id_token ?? '', post_logout_redirect_uri: REDIRECT });
    const page = await flow.browser.fetch(endUrl.href);
    expect(page.status).toBe(200);
    const html = await page.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const done = await flow.browser.fetch('/api/v1/oidc/session/end/confirm', {
      method: 'POST',
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(done.status, await done.clone().text()).toBe(303);
    expect(done.headers.get('location')?.startsWith(REDIRECT)).toBe(true);
    const count = await t.database.db.execute(
      sql`select count(*)::int as n from oidc_artifacts where model = 'Session' and account_id = ${String(tokens.claims()?.sub)}`,
    );
    expect((count as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
  });
});
