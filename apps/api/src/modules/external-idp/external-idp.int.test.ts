import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, externalIdentities, externalProviders, users } from '#src/db/schema/index.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { enableTotp, totpCode } from '#test/mfa-fixtures.js';
import { type ExternalIdp, followIdpRedirects, startExternalIdp } from '#test/support/external-idp.js';

const PUBLIC_URL = 'http://palisade.test';
const REDIRECT = `${PUBLIC_URL}/auth/callback`;

/** The session cookie a sign-in set (the response also clears the pending-authorization cookie). */
function sessionOf(res: LightMyRequestResponse): string {
  const session = res.cookies.find((c) => c.name === 'palisade_session');
  if (!session?.value) throw new Error(`no session cookie: ${res.statusCode} ${res.body}`);
  return `palisade_session=${session.value}`;
}

describe('external OpenID sign-in', () => {
  let t: TestApp;
  let idp: ExternalIdp;
  let admin: string;

  beforeAll(async () => {
    idp = await startExternalIdp({ redirectUris: [REDIRECT] });
    t = await createTestApp({ PUBLIC_URL });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });

  const providerBody = (extra: Record<string, unknown> = {}) => ({
    kind: 'Custom',
    name: 'Company',
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
    base_url: idp.issuer,
    display_name: 'Sign in with Company',
    ...extra,
  });

  async function configure(extra: Record<string, unknown> = {}) {
    const res = await t.request('POST', '/api/v1/openid/provider', { cookie: admin, payload: providerBody(extra) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  /** auth_info → the IdP as `sub` → the callback URL's parameters and the pending cookie. */
  async function authorize(sub: string) {
    const info = await t.request('GET', '/api/v1/openid/auth_info');
    expect(info.statusCode, info.body).toBe(200);
    const pending = info.cookies.find((c) => c.name === 'palisade_external_login');
    expect(pending?.httpOnly).toBe(true);
    idp.signInAs(sub);
    const back = await followIdpRedirects(info.json().url, REDIRECT);
    const code = back.searchParams.get('code');
    const state = back.searchParams.get('state');
    if (!code || !state) throw new Error(`no code at ${back.href}`);
    const iss = back.searchParams.get('iss') ?? undefined;
    return { code, state, iss, cookie: `palisade_external_login=${pending?.value}` };
  }

  async function signIn(sub: string) {
    const a = await authorize(sub);
    return t.request('POST', '/api/v1/openid/callback', {
      cookie: a.cookie,
      payload: { code: a.code, state: a.state, ...(a.iss ? { iss: a.iss } : {}) },
    });
  }

  const loginEvents = async () =>
    (await t.database.db.select().from(events).where(eq(events.type, 'auth.login_succeeded'))).map((e) => e.details);

  it('creates an account on first sign-in, then signs the same identity in to it', async () => {
    await configure();
    idp.setAccount({
      sub: 'ext-1',
      email: 'jane.doe@corp.test',
      email_verified: true,
      preferred_username: 'jane.doe',
      given_name: 'Jane',
      family_name: 'Doe',
    });
    const res = await signIn('ext-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ username: 'jane.doe', email: 'jane.doe@corp.test', first_name: 'Jane', last_name: 'Doe' });
    const me = await t.request('GET', '/api/v1/me', { cookie: sessionOf(res) });
    expect(me.json().username).toBe('jane.doe');
    expect(await loginEvents()).toContainEqual({ method: 'openid', provider: 'Company' });

    const again = await signIn('ext-1');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().user.username).toBe('jane.doe');
    expect(await t.database.db.select().from(users).where(eq(users.email, 'jane.doe@corp.test'))).toHaveLength(1);
  });

  it('refuses an unknown identity with 403 when auto-create is off', async () => {
    await configure({ auto_create_account: false });
    idp.setAccount({ sub: 'ext-2', email: 'nobody@corp.test', email_verified: true, preferred_username: 'nobody' });
    const res = await signIn('ext-2');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'external_login.no_account' });
    expect(res.cookies.find((c) => c.name === 'palisade_session')).toBeUndefined();
    expect(await t.database.db.select().from(users).where(eq(users.email, 'nobody@corp.test'))).toHaveLength(0);
  });

  it.each([
    ['remove', 'jhnsmith'],
    ['replace', 'j_hn_smith_'],
    ['prune_email', 'john.smith'],
  ] as const)('username handling %s makes %s', async (mode, expected) => {
    await configure({ username_handling: mode });
    idp.setAccount({ sub: `ext-${mode}`, email: 'john.smith@corp.test', email_verified: true, preferred_username: '1jöhn smith!' });
    const res = await signIn(`ext-${mode}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.username).toBe(expected);
  });

  it('links an existing account with the same verified email instead of creating one', async () => {
    await configure();
    const existing = await t.newUser(admin, 'alice', { email: 'alice@corp.test' });
    idp.setAccount({ sub: 'ext-alice', email: 'Alice@corp.test', email_verified: true, preferred_username: 'alice.external' });
    const res = await signIn('ext-alice');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ id: existing.id, username: 'alice' });
    const links = await t.database.db.select().from(externalIdentities).where(eq(externalIdentities.subject, 'ext-alice'));
    expect(links).toMatchObject([{ userId: existing.id, provider: 'Company' }]);
  });

  it('does not link by an email the provider has not verified', async () => {
    await configure();
    await t.newUser(admin, 'bob', { email: 'bob@corp.test' });
    idp.setAccount({ sub: 'ext-bob', email: 'bob@corp.test', email_verified: false, preferred_username: 'bob2' });
    const res = await signIn('ext-bob');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('external_login.no_account');
    expect(await t.database.db.select().from(externalIdentities)).toHaveLength(0);
  });

  it('asks for the Palisade second factor after an external sign-in (201 mfa)', async () => {
    await configure();
    const cookie = await t.createUser('carol', { email: 'carol@corp.test' });
    const { secret } = await enableTotp(t, cookie);
    idp.setAccount({ sub: 'ext-carol', email: 'carol@corp.test', email_verified: true });
    const res = await signIn('ext-carol');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().mfa.methods).toContain('totp');
    // The pending session reaches the second step only.
    const pending = sessionOf(res);
    expect((await t.request('GET', '/api/v1/me', { cookie: pending })).statusCode).toBe(401);
    // The second step is the same as after a password: a TOTP code (the next one: enabling used this one) completes it.
    const step = await t.request('POST', '/api/v1/auth/totp/verify', { cookie: pending, payload: { code: totpCode(secret, 1) } });
    expect(step.statusCode, step.body).toBe(200);
    expect(step.json().user.username).toBe('carol');
    const full = step.cookies.some((c) => c.name === 'palisade_session') ? sessionOf(step) : pending;
    expect((await t.request('GET', '/api/v1/me', { cookie: full })).json().username).toBe('carol');
  });

  it('refuses a disabled user', async () => {
    await configure();
    const dave = await t.newUser(admin, 'dave', { email: 'dave@corp.test' });
    await t.database.db
      .update(users)
      .set({ isActive: false })
      .where(eq(users.id, dave.id as number));
    idp.setAccount({ sub: 'ext-dave', email: 'dave@corp.test', email_verified: true });
    const res = await signIn('ext-dave');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('auth.user_disabled');
    expect(res.cookies.find((c) => c.name === 'palisade_session' && c.value !== '')).toBeUndefined();
  });

  it('refuses a callback whose state does not match the pending sign-in, or without one', async () => {
    await configure();
    idp.setAccount({ sub: 'ext-eve', email: 'eve@corp.test', email_verified: true });
    const a = await authorize('ext-eve');
    const wrong = await t.request('POST', '/api/v1/openid/callback', { cookie: a.cookie, payload: { code: a.code, state: 'forged' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('external_login.failed');
    const noCookie = await t.request('POST', '/api/v1/openid/callback', { payload: { code: a.code, state: a.state } });
    expect(noCookie.statusCode).toBe(400);
    const tampered = await t.request('POST', '/api/v1/openid/callback', {
      cookie: 'palisade_external_login=v1.AAAA',
      payload: { code: a.code, state: a.state },
    });
    expect(tampered.statusCode).toBe(400);
    expect(await t.database.db.select().from(users).where(eq(users.email, 'eve@corp.test'))).toHaveLength(0);
  });

  it('answers a bad code with a 400 problem, not a 500', async () => {
    await configure();
    idp.setAccount({ sub: 'ext-fay', email: 'fay@corp.test', email_verified: true });
    const a = await authorize('ext-fay');
    const res = await t.request('POST', '/api/v1/openid/callback', {
      cookie: a.cookie,
      payload: { code: 'not-a-code', state: a.state, iss: a.iss },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('external_login.failed');
  });

  it('auth_info is 404 without a provider, 400 when the provider cannot be reached or its secret read', async () => {
    expect((await t.request('GET', '/api/v1/openid/auth_info')).statusCode).toBe(404);
    await configure({ base_url: 'http://127.0.0.1:9/nothing' });
    const res = await t.request('GET', '/api/v1/openid/auth_info');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('external_login.failed');

    // A secret sealed under another instance key is a 400 that says so, not a 500.
    await t.database.db.update(externalProviders).set({ baseUrl: idp.issuer, clientSecret: 'v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    const unreadable = await t.request('GET', '/api/v1/openid/auth_info');
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json().detail).toMatch(/client secret cannot be read/);
  });
});

describe('external OpenID provider settings', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL });
    admin = await t.loginAdmin();
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = {
    kind: 'Google',
    name: 'Google',
    client_id: 'client-1',
    client_secret: 'top-secret',
    base_url: 'https://accounts.google.com/',
    google_service_account_key: '{"private_key":"k"}',
  };

  it('creates, reads without secrets, updates keeping absent secrets, deletes; one provider at a time', async () => {
    const empty = await t.request('GET', '/api/v1/openid/provider', { cookie: admin });
    expect(empty.json()).toEqual({ provider: null, redirect_url: REDIRECT });

    const created = await t.request('POST', '/api/v1/openid/provider', { cookie: admin, payload: body });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      kind: 'Google',
      base_url: 'https://accounts.google.com',
      client_secret_set: true,
      google_service_account_key_set: true,
      okta_private_jwk_set: false,
      auto_create_account: true,
      username_handling: 'remove',
    });
    expect(created.body).not.toContain('top-secret');
    const [row] = await t.database.db.select().from(externalProviders);
    expect(row?.clientSecret).toMatch(/^v1\./);
    expect(row?.clientSecret).not.toContain('top-secret');

    const second = await t.request('POST', '/api/v1/openid/provider', { cookie: admin, payload: { ...body, name: 'Other' } });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('external_provider.exists');

    const { client_secret: _s, google_service_account_key: _k, ...withoutSecrets } = body;
    const updated = await t.request('PUT', '/api/v1/openid/provider/Google', {
      cookie: admin,
      payload: { ...withoutSecrets, display_name: 'Google Workspace', jumpcloud_api_key: '' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      display_name: 'Google Workspace',
      client_secret_set: true,
      google_service_account_key_set: true,
    });
    const modified = await t.database.db.select().from(events).where(eq(events.type, 'external_provider.modified'));
    expect(modified.at(-1)?.details).toEqual({ changed: ['display_name'] });

    const cleared = await t.request('PUT', '/api/v1/openid/provider/Google', {
      cookie: admin,
      payload: { ...withoutSecrets, client_secret: '' },
    });
    expect(cleared.json().client_secret_set).toBe(false);

    const read = await t.request('GET', '/api/v1/openid/provider', { cookie: admin });
    expect(read.json().provider.name).toBe('Google');

    expect((await t.request('DELETE', '/api/v1/openid/provider/Nope', { cookie: admin })).statusCode).toBe(404);
    expect((await t.request('DELETE', '/api/v1/openid/provider/Google', { cookie: admin })).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/openid/provider', { cookie: admin })).json().provider).toBeNull();
    const types = (await t.database.db.select().from(events)).map((e) => e.type).filter((x) => x.startsWith('external_provider.'));
    expect(types).toEqual([
      'external_provider.created',
      'external_provider.modified',
      'external_provider.modified',
      'external_provider.deleted',
    ]);
  });

  it('the public essentials tell the login page whether to show the button, and its text', async () => {
    const essentials = async () => (await t.request('GET', '/api/v1/settings_essentials')).json().external_login_button;
    expect(await essentials()).toBeNull();
    const created = await t.request('POST', '/api/v1/openid/provider', { cookie: admin, payload: { ...body, display_name: 'Acme SSO' } });
    expect(created.statusCode, created.body).toBe(201);
    try {
      expect(await essentials()).toBe('Acme SSO');
    } finally {
      await t.request('DELETE', '/api/v1/openid/provider/Google', { cookie: admin });
    }
    expect(await essentials()).toBeNull();
  });

  it('refuses bad input with field errors', async () => {
    const res = await t.request('POST', '/api/v1/openid/provider', {
      cookie: admin,
      payload: { ...body, name: '', base_url: 'ftp://x', kind: 'Yahoo', username_handling: 'drop', sync_interval: 5 },
    });
    expect(res.statusCode).toBe(400);
    const paths = (res.json().errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual(['base_url', 'kind', 'name', 'sync_interval', 'username_handling']);
  });

  it('is for admins only', async () => {
    const user = await t.createUser('plain');
    expect((await t.request('GET', '/api/v1/openid/provider', { cookie: user })).statusCode).toBe(403);
    expect((await t.request('POST', '/api/v1/openid/provider', { cookie: user, payload: body })).statusCode).toBe(403);
  });
});
