import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.js';
import { type DatabaseHandle, openDatabase } from '#src/db/client.js';
import { oauthClients } from '#src/db/schema/index.js';
import { parseEnv } from '#src/env.js';
import { SecretBox } from '#src/lib/crypto.js';
import { createTestApp, ensureWorkerDatabase, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { Browser, verifyWithJwks } from '#test/oidc-fixtures.js';

const SECRET_KEY = 'oidc-replicas-test-secret-key-0123456789abcdef';
const REDIRECT = 'http://localhost:9999/callback';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Two API processes on one PostgreSQL (the same SECRET_KEY and PUBLIC_URL, as replicas behind a
 * load balancer): the provider keeps nothing in memory that the other would miss. Also: signing key
 * rotation publishes the new key before it signs and keeps the old one published.
 */
describe('OpenID provider across replicas and key rotation', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let bDatabase: DatabaseHandle;
  let issuer: string;
  let portB: number;
  const secrets = SecretBox.fromSecret(SECRET_KEY);
  const sentToB: string[] = [];

  beforeAll(async () => {
    const portA = await freePort();
    issuer = `http://127.0.0.1:${portA}`;
    a = await createTestApp({ SECRET_KEY, PUBLIC_URL: issuer });
    await a.app.listen({ host: '127.0.0.1', port: portA });
    bDatabase = await openDatabase({ databaseUrl: await ensureWorkerDatabase(), dataDir: '/nonexistent', poolSize: 3 });
    const env = parseEnv({
      DATABASE_URL: 'postgres://unused',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '0',
      SECRET_KEY,
      PUBLIC_URL: issuer,
    });
    b = await buildApp({ env, database: bDatabase, logger: false });
    await b.listen({ host: '127.0.0.1', port: 0 });
    const address = b.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    portB = address.port;
  });
  afterAll(async () => {
    await b.close();
    await bDatabase.close();
    await a.app.close();
  });

  /** A relying party whose back-channel calls (token, userinfo, revocation) go to `replica`. */
  async function relyingParty(replica: 'a' | 'b') {
    const clientId = randomUUID().replaceAll('-', '');
    const secret = `secret-${randomUUID()}`;
    await a.database.db.insert(oauthClients).values({
      clientId,
      clientSecretEnc: secrets.encrypt(secret),
      name: 'Replica app',
      redirectUris: [REDIRECT],
      scopes: ['openid', 'profile'],
    });
    const config = await client.discovery(new URL(issuer), clientId, { client_secret: secret }, client.ClientSecretBasic(secret), {
      execute: [client.allowInsecureRequests],
    });
    if (replica === 'b') {
      const from = `${issuer}/`;
      config[client.customFetch] = (url, options) => {
        const target = url.startsWith(from) ? `http://127.0.0.1:${portB}/${url.slice(from.length)}` : url;
        sentToB.push(target);
        return fetch(target, options as RequestInit);
      };
    }
    return config;
  }

  /** Sign-in at replica A (the browser's side): the callback URL and the PKCE verifier. */
  async function signIn(config: client.Configuration, username: string) {
    const browser = new Browser(issuer);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const started = await browser.fetch(url.href);
    const uid = new URL(started.headers.get('location') ?? '', issuer).searchParams.get('interaction') ?? '';
    await browser.fetch('/api/v1/auth', { method: 'POST', json: { username, password: USER_PASSWORD } });
    const decided = await browser.fetch(`/api/v1/oauth/authorize?interaction=${uid}&allow=true`, { method: 'POST' });
    let next = ((await decided.json()) as { url: string }).url;
    while (!next.startsWith(REDIRECT)) {
      const res = await browser.fetch(next);
      next = res.headers.get('location') ?? '';
      if (!next) throw new Error(`no redirect: ${res.status}`);
    }
    return { callback: new URL(next), verifier, state };
  }

  it('a code issued by one replica is redeemed at the other; refresh and userinfo there too', async () => {
    const admin = await a.loginAdmin();
    await a.newUser(admin, 'replicauser');
    const config = await relyingParty('b');
    const flow = await signIn(config, 'replicauser');
    const tokens = await client.authorizationCodeGrant(config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    const sub = String(tokens.claims()?.sub);
    expect((await client.fetchUserInfo(config, tokens.access_token, sub)).preferred_username).toBe('replicauser');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect(refreshed.access_token).toBeTruthy();
    expect(sentToB).toEqual(
      expect.arrayContaining([`http://127.0.0.1:${portB}/api/v1/oidc/token`, `http://127.0.0.1:${portB}/api/v1/oidc/me`]),
    );
  });

  it('an app secret regenerated or an app disabled at one replica is refused at the other at once', async () => {
    const admin = await a.loginAdmin();
    await a.newUser(admin, 'secretuser');
    const config = await relyingParty('b');
    const { client_id: clientId, client_secret: oldSecret } = config.clientMetadata() as { client_id: string; client_secret: string };
    const flow = await signIn(config, 'secretuser');
    const tokens = await client.authorizationCodeGrant(config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    /** A refresh-token grant at replica B with HTTP Basic. */
    const grantAtB = async (secret: string, refreshToken: string) => {
      const res = await fetch(`http://127.0.0.1:${portB}/api/v1/oidc/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      });
      return { status: res.status, body: (await res.json()) as { refresh_token?: string; error?: string } };
    };
    // B has opened the sealed secret (and built the provider's client) with the old secret.
    const first = await grantAtB(oldSecret, tokens.refresh_token ?? '');
    expect(first.status).toBe(200);

    const regenerated = await a.request('POST', `/api/v1/oauth/${clientId}/secret`, { cookie: admin });
    expect(regenerated.statusCode).toBe(200);
    const newSecret = (regenerated.json() as { client_secret: string }).client_secret;
    expect(await grantAtB(oldSecret, first.body.refresh_token ?? '')).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const second = await grantAtB(newSecret, first.body.refresh_token ?? '');
    expect(second.status).toBe(200);

    const disabled = await a.request('POST', `/api/v1/oauth/${clientId}`, { cookie: admin, payload: { enabled: false } });
    expect(disabled.statusCode).toBe(200);
    expect(await grantAtB(newSecret, second.body.refresh_token ?? '')).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('rotation: the new key is published before it signs; the old one stays published', async () => {
    const admin = await a.loginAdmin();
    await a.newUser(admin, 'rotateuser');
    const config = await relyingParty('a');
    const jwksUri = `${issuer}/api/v1/oidc/jwks`;
    const idToken = async () => {
      const flow = await signIn(config, 'rotateuser');
      const tokens = await client.authorizationCodeGrant(config, flow.callback, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
      });
      return verifyWithJwks(tokens.id_token ?? '', jwksUri);
    };
    const before = await idToken();

    const staged = await a.request('POST', '/api/v1/openid/keys/rotate', { cookie: admin, payload: { publish_ahead_hours: 1 } });
    expect(staged.statusCode).toBe(200);
    const stagedKids = (staged.json() as { kids: string[] }).kids;
    const published = (await (await fetch(jwksUri)).json()) as { keys: { kid: string }[] };
    expect(published.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([before.header.kid, ...stagedKids]));
    expect((await idToken()).header.kid).toBe(before.header.kid);

    const now = await a.request('POST', '/api/v1/openid/keys/rotate', { cookie: admin, payload: { publish_ahead_hours: 0 } });
    expect(now.statusCode).toBe(200);
    const activeKids = (now.json() as { kids: string[] }).kids;
    const after = await idToken();
    expect(activeKids).toContain(after.header.kid);
    const still = (await (await fetch(jwksUri)).json()) as { keys: { kid: string }[] };
    expect(still.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([before.header.kid, ...stagedKids, ...activeKids]));
    // The other replica serves the same key set once it reloads (every minute; forced here).
    await b.oidc.reloadKeys();
    const fromB = (await (await fetch(`http://127.0.0.1:${portB}/api/v1/oidc/jwks`)).json()) as { keys: { kid: string }[] };
    expect(fromB.keys.map((k) => k.kid).sort()).toEqual(still.keys.map((k) => k.kid).sort());
  });
});
