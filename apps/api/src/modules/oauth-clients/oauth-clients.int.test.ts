import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '#src/lib/crypto.js';
import { createTestApp, resetDatabase, type TestApp } from '#test/helpers.js';
import { findOAuthClient } from './oauth-clients.repo.js';

const SECRET_KEY = 'oauth-clients-routes-secret-key-0123456789';
const GRAFANA = { name: 'Grafana', redirect_uris: ['https://grafana.example.com/login/generic_oauth'], scopes: ['openid', 'email'] };

describe('OpenID apps (OAuth clients)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ SECRET_KEY });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(() => t.close());

  const as = (cookie: string) => ({
    get: (url: string) => t.request('GET', url, { cookie }),
    post: (url: string, payload?: unknown) => t.request('POST', url, { cookie, payload }),
    put: (url: string, payload: unknown) => t.request('PUT', url, { cookie, payload }),
    del: (url: string) => t.request('DELETE', url, { cookie }),
  });
  const fieldErrors = (res: { json(): { errors?: { path: string; code: string; message: string }[] } }) =>
    (res.json().errors ?? []).map((e) => ({ path: e.path, code: e.code, message: e.message }));
  const create = async (body: Record<string, unknown> = GRAFANA) => {
    const res = await as(admin).post('/api/v1/oauth', body);
    expect(res.statusCode).toBe(201);
    return res.json() as { client_id: string; client_secret?: string };
  };
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const box = SecretBox.fromSecret(SECRET_KEY);

  it('creates, lists, reads, updates, enables/disables and deletes, recording an event for each change', async () => {
    const created = await as(admin).post('/api/v1/oauth', { ...GRAFANA, scopes: ['email', 'openid', 'email'] });
    expect(created.statusCode).toBe(201);
    const app = created.json();
    expect(created.headers['cache-control']).toBe('no-store');
    expect(app).toEqual({
      client_id: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{64}$/),
      name: 'Grafana',
      redirect_uris: GRAFANA.redirect_uris,
      scopes: ['openid', 'email'],
      public: false,
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const { client_secret: secret, ...withoutSecret } = app;
    const list = await as(admin).get('/api/v1/oauth');
    expect(list.json()).toEqual([withoutSecret]);
    expect(list.body).not.toContain(secret);
    const read = await as(admin).get(`/api/v1/oauth/${app.client_id}`);
    expect(read.json()).toEqual(withoutSecret);

    const updated = await as(admin).put(`/api/v1/oauth/${app.client_id}`, {
      name: 'Grafana prod',
      redirect_uris: ['https://grafana.example.com/cb', 'http://localhost:3000/cb'],
      scopes: ['openid', 'groups'],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Grafana prod', scopes: ['openid', 'groups'], public: false, enabled: true });
    expect(updated.json().client_secret).toBeUndefined();
    expect(await findOAuthClient(t.database.db, app.client_id, box)).toMatchObject({ clientSecret: secret, name: 'Grafana prod' });

    const off = await as(admin).post(`/api/v1/oauth/${app.client_id}`, { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().enabled).toBe(false);
    expect((await findOAuthClient(t.database.db, app.client_id, box))?.enabled).toBe(false);
    expect((await as(admin).post(`/api/v1/oauth/${app.client_id}`, { enabled: true })).json().enabled).toBe(true);

    expect((await as(admin).del(`/api/v1/oauth/${app.client_id}`)).statusCode).toBe(204);
    expect(await findOAuthClient(t.database.db, app.client_id, box)).toBeUndefined();
    const gone = await as(admin).get(`/api/v1/oauth/${app.client_id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('oauth_client.not_found');

    const recorded = await rows<{ type: string; object_type: string; object_id: string; details: Record<string, unknown> }>(
      sql`select type, object_type, object_id, details from events where module = 'openid' order by id`,
    );
    expect(recorded.map((e) => e.type)).toEqual([
      'oauth_app.created',
      'oauth_app.modified',
      'oauth_app.disabled',
      'oauth_app.enabled',
      'oauth_app.deleted',
    ]);
    expect(recorded.every((e) => e.object_type === 'oauth_app' && e.object_id === app.client_id)).toBe(true);
    expect(recorded[1]?.details).toEqual({ changed: ['name', 'redirect_uris', 'scopes'], previous_name: 'Grafana' });
    expect(JSON.stringify(recorded)).not.toContain(secret);
  });

  it('seals the secret at rest, shows it on request (recorded) and regenerates it (the old one stops matching)', async () => {
    const app = await create();
    const secret = app.client_secret as string;
    const [stored] = await rows<{ client_secret_enc: string }>(
      sql`select client_secret_enc from oauth_clients where client_id = ${app.client_id}`,
    );
    expect(stored?.client_secret_enc).toMatch(/^v1\./);
    expect(stored?.client_secret_enc).not.toContain(secret);
    expect(box.decrypt(stored?.client_secret_enc as string)).toBe(secret);

    const shown = await as(admin).get(`/api/v1/oauth/${app.client_id}/secret`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual({ client_secret: secret });
    // A secret is never kept by a browser or proxy cache.
    expect(shown.headers['cache-control']).toBe('no-store');

    const regenerated = await as(admin).post(`/api/v1/oauth/${app.client_id}/secret`);
    expect(regenerated.statusCode).toBe(200);
    const fresh = regenerated.json().client_secret as string;
    expect(regenerated.headers['cache-control']).toBe('no-store');
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(fresh).not.toBe(secret);
    expect((await findOAuthClient(t.database.db, app.client_id, box))?.clientSecret).toBe(fresh);
    expect((await as(admin).get(`/api/v1/oauth/${app.client_id}/secret`)).json()).toEqual({ client_secret: fresh });

    const recorded = await rows<{ type: string; details: unknown }>(
      sql`select type, details from events where module = 'openid' order by id`,
    );
    expect(recorded.map((e) => e.type)).toEqual([
      'oauth_app.created',
      'oauth_app.secret_viewed',
      'oauth_app.secret_regenerated',
      'oauth_app.secret_viewed',
    ]);
    const text = JSON.stringify(recorded);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(fresh);
  });

  it('a public app has no secret; switching it confidential answers a new secret once, switching back drops it', async () => {
    const app = await create({ ...GRAFANA, public: true });
    expect(app.client_secret).toBeUndefined();
    expect(await findOAuthClient(t.database.db, app.client_id, box)).toMatchObject({ public: true, clientSecret: undefined });
    for (const res of [
      await as(admin).get(`/api/v1/oauth/${app.client_id}/secret`),
      await as(admin).post(`/api/v1/oauth/${app.client_id}/secret`),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('oauth_client.public');
    }

    const confidential = await as(admin).put(`/api/v1/oauth/${app.client_id}`, { ...GRAFANA, public: false });
    expect(confidential.statusCode).toBe(200);
    const secret = confidential.json().client_secret as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(await findOAuthClient(t.database.db, app.client_id, box)).toMatchObject({ public: false, clientSecret: secret });
    // An unchanged confidential app keeps its secret and answers none.
    const again = await as(admin).put(`/api/v1/oauth/${app.client_id}`, GRAFANA);
    expect(again.json().client_secret).toBeUndefined();
    expect((await findOAuthClient(t.database.db, app.client_id, box))?.clientSecret).toBe(secret);

    const back = await as(admin).put(`/api/v1/oauth/${app.client_id}`, { ...GRAFANA, public: true });
    expect(back.json()).toMatchObject({ public: true });
    const [stored] = await rows<{ client_secret_enc: string | null }>(
      sql`select client_secret_enc from oauth_clients where client_id = ${app.client_id}`,
    );
    expect(stored?.client_secret_enc).toBeNull();
  });

  it('validates with the field messages of spec §5, per redirect URI index, and stores nothing', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const res = await as(admin).post('/api/v1/oauth', body);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json().code).toBe('validation.failed');
      return fieldErrors(res);
    };
    expect(await refused({ name: ' ', redirect_uris: [], scopes: [] })).toEqual([
      { path: 'name', code: 'required', message: 'Field required' },
      { path: 'redirect_uris', code: 'oauth.redirect_required', message: 'Add at least one redirect URI' },
      { path: 'scopes', code: 'oauth.scope_required', message: 'Select at least one scope' },
    ]);
    expect(
      await refused({
        ...GRAFANA,
        redirect_uris: [
          'https://ok.example.com/cb',
          'not a url',
          'http://grafana.example.com/cb',
          'https://ok.example.com/cb#frag',
          'https://ok.example.com/cb',
          '',
          'ftp://files.example.com/cb',
          'https://user:pw@ok.example.com/cb',
        ],
      }),
    ).toEqual([
      { path: 'redirect_uris.1', code: 'url.invalid', message: 'URL is not valid' },
      { path: 'redirect_uris.2', code: 'oauth.redirect_https', message: 'Use https (http only for localhost, 127.0.0.1 or [::1])' },
      { path: 'redirect_uris.3', code: 'oauth.redirect_fragment', message: 'A redirect URI must not contain a fragment (#)' },
      { path: 'redirect_uris.5', code: 'required', message: 'Field required' },
      { path: 'redirect_uris.6', code: 'url.invalid', message: 'URL is not valid' },
      { path: 'redirect_uris.7', code: 'url.credentials', message: 'Put credentials in the fields for them, not in the URL' },
    ]);
    expect(await refused({ ...GRAFANA, redirect_uris: ['https://a.example.com/cb', 'https://a.example.com/cb'] })).toEqual([
      { path: 'redirect_uris.1', code: 'oauth.redirect_duplicate', message: 'This redirect URI is already listed' },
    ]);
    expect(await refused({ ...GRAFANA, scopes: ['openid', 'offline_access'] })).toEqual([
      { path: 'scopes.1', code: 'invalid', message: 'Invalid value' },
    ]);
    expect(await refused({ ...GRAFANA, client_secret: 'chosen' })).toEqual([
      expect.objectContaining({ path: 'client_secret', code: 'unknown_field' }),
    ]);
    // http is fine on loopback.
    await create({ ...GRAFANA, redirect_uris: ['http://localhost:3000/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb'] });
    expect((await as(admin).get('/api/v1/oauth')).json()).toHaveLength(1);
  });

  it('answers 404 for an unknown client ID on every route', async () => {
    const unknown = 'no-such-client';
    const answers = [
      await as(admin).get(`/api/v1/oauth/${unknown}`),
      await as(admin).put(`/api/v1/oauth/${unknown}`, GRAFANA),
      await as(admin).post(`/api/v1/oauth/${unknown}`, { enabled: false }),
      await as(admin).del(`/api/v1/oauth/${unknown}`),
      await as(admin).get(`/api/v1/oauth/${unknown}/secret`),
      await as(admin).post(`/api/v1/oauth/${unknown}/secret`),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('oauth_client.not_found');
    }
  });

  it('is for admins only and follows the OpenID module switch', async () => {
    const app = await create();
    const user = await t.createUser('plainuser');
    expect((await as(user).get('/api/v1/oauth')).statusCode).toBe(403);
    expect((await as(user).get(`/api/v1/oauth/${app.client_id}/secret`)).statusCode).toBe(403);
    expect((await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { openid_enabled: false } })).statusCode).toBe(200);
    const disabled = await as(admin).get('/api/v1/oauth');
    expect(disabled.statusCode).toBe(404);
    expect(disabled.json().code).toBe('module.disabled');
  });
});
