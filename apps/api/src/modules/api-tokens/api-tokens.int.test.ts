import { API_TOKEN_PATTERN, ROUTE_ACCESS } from '@palisade/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, events, users } from '#src/db/schema/index.js';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { hashToken } from './token-format.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('API tokens: /user/{username}/api_token and Authorization: Bearer', () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAdmin();
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
  });
  afterAll(() => t.close());

  async function create(cookie: string, username: string, name: string): Promise<{ id: number; token: string }> {
    const res = await t.request('POST', `/api/v1/user/${username}/api_token`, { cookie, payload: { name } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }
  const names = async (cookie: string, username: string) =>
    ((await t.request('GET', `/api/v1/user/${username}/api_token`, { cookie })).json() as { name: string }[]).map((x) => x.name);
  const rowOf = async (id: number) => (await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0];

  it('creates a token answered once (201, no-store), lists it without the secret, stores only the id part and a SHA-256', async () => {
    const res = await t.request('POST', '/api/v1/user/alice/api_token', { cookie: alice, payload: { name: '  ci deploy ' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expect(created).toMatchObject({ name: 'ci deploy', id: expect.any(Number), created_at: expect.any(String) });
    expect(created.token).toMatch(API_TOKEN_PATTERN);
    expect(created.last_used_at).toBeUndefined();

    const list = await t.request('GET', '/api/v1/user/alice/api_token', { cookie: alice });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([{ id: created.id, name: 'ci deploy', created_at: created.created_at }]);
    expect(list.body).not.toContain(created.token.slice(17));

    const row = await rowOf(created.id);
    expect(row?.tokenId).toBe(created.token.slice(4, 16));
    expect(row?.tokenHash).toBe(hashToken(created.token));
    const secret = created.token.slice(17);
    const dump = JSON.stringify(await t.database.db.execute(sql`select * from api_tokens`));
    expect(dump).not.toContain(secret);
    const [event] = await t.database.db.select().from(events).where(eq(events.type, 'api_token.created'));
    expect(event).toMatchObject({ objectType: 'api_token', objectId: String(created.id), objectName: 'ci deploy', username: 'alice' });
    expect(JSON.stringify(event)).not.toContain(secret);
  });

  it('validates names: required, at most 100 characters, one line, unique per user (case-insensitive); 400 with the field', async () => {
    for (const payload of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'a\nb' },
      { name: 5 },
      { name: 'ok', extra: 1 },
    ]) {
      const res = await t.request('POST', '/api/v1/user/alice/api_token', { cookie: alice, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation.failed');
    }
    await create(alice, 'alice', 'unique one');
    const dup = await t.request('POST', '/api/v1/user/alice/api_token', { cookie: alice, payload: { name: 'UNIQUE one' } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ code: 'api_token.name_taken', errors: [{ path: 'name', code: 'name_taken' }] });
    // Another user may use the same name.
    await create(bob, 'bob', 'unique one');
    const bad = await t.request('DELETE', '/api/v1/user/alice/api_token/abc', { cookie: alice });
    expect(bad.statusCode).toBe(400);
  });

  it('renames and deletes (events in the same transaction); a missing id or user is 404', async () => {
    const { id } = await create(alice, 'alice', 'to rename');
    const renamed = await t.request('POST', `/api/v1/user/alice/api_token/${id}/rename`, { cookie: alice, payload: { name: 'renamed' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id, name: 'renamed' });
    expect(renamed.json().token).toBeUndefined();
    const taken = await t.request('POST', `/api/v1/user/alice/api_token/${id}/rename`, { cookie: alice, payload: { name: 'ci deploy' } });
    expect(taken.json().code).toBe('api_token.name_taken');
    const [ev] = await t.database.db.select().from(events).where(eq(events.type, 'api_token.renamed'));
    expect(ev).toMatchObject({ objectId: String(id), objectName: 'renamed', details: { old_name: 'to rename' } });

    const del = await t.request('DELETE', `/api/v1/user/alice/api_token/${id}`, { cookie: alice });
    expect(del.statusCode).toBe(204);
    expect(await rowOf(id)).toBeUndefined();
    expect(await t.database.db.select().from(events).where(eq(events.type, 'api_token.deleted'))).toHaveLength(1);
    const again = await t.request('DELETE', `/api/v1/user/alice/api_token/${id}`, { cookie: alice });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('api_token.not_found');
    const rename404 = await t.request('POST', '/api/v1/user/alice/api_token/999999/rename', { cookie: alice, payload: { name: 'x' } });
    expect(rename404.json().code).toBe('api_token.not_found');
    const nobody = await t.request('GET', '/api/v1/user/nobody/api_token', { cookie: admin });
    expect(nobody.statusCode).toBe(404);
  });

  it('ownership: a user manages only their own tokens (403), not through another user’s path with their id (404); admins manage all', async () => {
    const { id } = await create(bob, 'bob', 'bob owns');
    expect((await t.request('GET', '/api/v1/user/bob/api_token', { cookie: alice })).statusCode).toBe(403);
    expect((await t.request('POST', '/api/v1/user/bob/api_token', { cookie: alice, payload: { name: 'x' } })).statusCode).toBe(403);
    expect((await t.request('DELETE', `/api/v1/user/bob/api_token/${id}`, { cookie: alice })).statusCode).toBe(403);
    // Alice's own path with Bob's token id: not hers.
    expect((await t.request('DELETE', `/api/v1/user/alice/api_token/${id}`, { cookie: alice })).statusCode).toBe(404);
    expect(
      (await t.request('POST', `/api/v1/user/alice/api_token/${id}/rename`, { cookie: alice, payload: { name: 'mine' } })).statusCode,
    ).toBe(404);
    expect(await rowOf(id)).toMatchObject({ name: 'bob owns' });

    expect(await names(admin, 'bob')).toContain('bob owns');
    const made = await create(admin, 'bob', 'made by admin');
    const renamed = await t.request('POST', `/api/v1/user/bob/api_token/${made.id}/rename`, {
      cookie: admin,
      payload: { name: 'admin renamed' },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await t.request('DELETE', `/api/v1/user/bob/api_token/${id}`, { cookie: admin })).statusCode).toBe(204);
    expect(await names(bob, 'bob')).toEqual(expect.arrayContaining(['admin renamed']));
    expect(await names(bob, 'bob')).not.toContain('bob owns');
  });

  it('Bearer authenticates as the owner on routes of every permission class', async () => {
    const { token } = await create(alice, 'alice', 'classes');
    const as = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      t.request(method, url, { headers: bearer(token), ...(payload === undefined ? {} : { payload }) });
    // public
    expect((await as('GET', '/api/v1/health')).statusCode).toBe(200);
    // user
    const me = await as('GET', '/api/v1/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ username: 'alice', is_admin: false });
    // self_or_admin: herself yes, someone else no
    expect((await as('GET', '/api/v1/user/alice')).statusCode).toBe(200);
    expect((await as('GET', '/api/v1/user/bob')).json().code).toBe('auth.forbidden');
    // owner_or_admin: her own device yes, Bob's no
    const bobDevice = await t.request('POST', '/api/v1/device/bob', {
      cookie: bob,
      payload: { name: 'bobs', wireguard_pubkey: 'nMQ1f3Vk4n1g7uA7dM4M3sYhEwYk0D0yWcP1UuMBa0w=' },
    });
    const own = await as('POST', '/api/v1/device/alice', {
      name: 'alices',
      wireguard_pubkey: 'Q2tK5x9y3s7c8d1e2f4g6h8j0k2m4n6p8r0t2v4x6zA=',
    });
    expect(own.statusCode, own.body).toBe(201);
    expect((await as('GET', `/api/v1/device/${own.json().device.id}`)).statusCode).toBe(200);
    expect(bobDevice.statusCode, bobDevice.body).toBe(201);
    expect((await as('GET', `/api/v1/device/${bobDevice.json().device.id}`)).statusCode).toBe(403);
    // admin: refused to a non-admin owner
    const users403 = await as('GET', '/api/v1/user');
    expect(users403.statusCode).toBe(403);
    expect(users403.json().code).toBe('auth.forbidden');
    // the pending-MFA steps are never reachable with a token
    const pending = await as('POST', '/api/v1/auth/totp/verify', { code: '123456' });
    expect(pending.statusCode).toBe(401);
  });

  it('every GET route answers a token as it answers the owner’s cookie (same status), for a user and for an admin', async () => {
    // Long-polls wait for events; the rest only read.
    const skip = new Set(['GET /api/v1/activity_log/feed']);
    const gets = Object.keys(ROUTE_ACCESS).filter((k) => k.startsWith('GET ') && !skip.has(k));
    expect(gets.length).toBeGreaterThan(40);
    const userToken = (await create(alice, 'alice', 'walk')).token;
    const adminToken = (await create(admin, 'admin', 'walk')).token;
    for (const [cookie, token, self] of [
      [alice, userToken, 'alice'],
      [admin, adminToken, 'admin'],
    ] as const) {
      for (const key of gets) {
        const url = key
          .slice(4)
          .replace(/:(\w+)/g, (_m, param: string) => (param === 'username' ? self : param === 'name' || param === 'group' ? 'admin' : '1'));
        const viaCookie = await t.request('GET', url, { cookie });
        const viaToken = await t.request('GET', url, { headers: bearer(token) });
        expect(
          viaToken.statusCode,
          `${key} as ${self}: cookie ${viaCookie.statusCode}, token ${viaToken.statusCode} ${viaToken.body.slice(0, 200)}`,
        ).toBe(viaCookie.statusCode);
      }
    }
  });

  it("admin rights come from the owner's groups at each request, not at creation", async () => {
    const carol = await t.createUser('carol');
    const { token } = await create(carol, 'carol', 'promoted');
    expect((await t.request('GET', '/api/v1/user', { headers: bearer(token) })).statusCode).toBe(403);
    const add = await t.request('POST', '/api/v1/group/admin', { cookie: admin, payload: { username: 'carol' } });
    expect(add.statusCode, add.body).toBeLessThan(300);
    expect((await t.request('GET', '/api/v1/user', { headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.request('GET', '/api/v1/user/bob/api_token', { headers: bearer(token) })).statusCode).toBe(200);
    const remove = await t.request('DELETE', '/api/v1/group/admin/user/carol', { cookie: admin });
    expect(remove.statusCode, remove.body).toBeLessThan(300);
    expect((await t.request('GET', '/api/v1/user', { headers: bearer(token) })).statusCode).toBe(403);
  });

  it('a deleted token and a disabled owner are refused at once (401); enabling the owner again restores the token', async () => {
    const dave = await t.createUser('dave');
    const a = await create(dave, 'dave', 'to delete');
    const b = await create(dave, 'dave', 'to keep');
    expect((await t.request('GET', '/api/v1/me', { headers: bearer(a.token) })).statusCode).toBe(200);
    expect((await t.request('DELETE', `/api/v1/user/dave/api_token/${a.id}`, { cookie: dave })).statusCode).toBe(204);
    const gone = await t.request('GET', '/api/v1/me', { headers: bearer(a.token) });
    expect(gone.statusCode).toBe(401);
    expect(gone.json().code).toBe('auth.unauthenticated');
    expect(gone.headers['www-authenticate']).toBe('Bearer error="invalid_token"');

    expect((await t.request('GET', '/api/v1/me', { headers: bearer(b.token) })).statusCode).toBe(200);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.username, 'dave'));
    expect((await t.request('GET', '/api/v1/me', { headers: bearer(b.token) })).statusCode).toBe(401);
    await t.database.db.update(users).set({ isActive: true }).where(eq(users.username, 'dave'));
    expect((await t.request('GET', '/api/v1/me', { headers: bearer(b.token) })).statusCode).toBe(200);
  });

  it('malformed, forged and unknown Bearer values are 401 (never 500), whatever cookie comes along; other schemes are left to the cookie', async () => {
    const { token } = await create(alice, 'alice', 'forge base');
    const flipped = `${token.slice(0, 30)}${token[30] === 'a' ? 'b' : 'a'}${token.slice(31)}`;
    // A well-formed token with a valid checksum but another secret: found by id, refused by the hash.
    const row = await t.database.db.select().from(apiTokens).where(eq(apiTokens.name, 'forge base'));
    expect(row).toHaveLength(1);
    const values = [
      'Bearer',
      'Bearer ',
      'Bearer  ',
      'bearer x',
      `Bearer ${token} extra`,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${flipped}`,
      `Bearer ${'a'.repeat(5000)}`,
      'Bearer pal_000000000000_0000000000000000000000000000000000000000000000',
      `Bearer ${token}\u00e9`,
    ];
    for (const authorization of values) {
      const res = await t.request('GET', '/api/v1/me', { cookie: alice, headers: { authorization } });
      expect(res.statusCode, authorization.slice(0, 80)).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    expect((await t.request('GET', '/api/v1/me', { headers: { authorization: `BEARER ${token}` } })).statusCode).toBe(200);
    // A reverse proxy's Basic auth is not ours: the cookie still decides.
    expect((await t.request('GET', '/api/v1/me', { cookie: alice, headers: { authorization: 'Basic dXNlcjpwYXNz' } })).statusCode).toBe(
      200,
    );
    // Never from a cookie or the query string.
    expect((await t.request('GET', `/api/v1/me?access_token=${token}`)).statusCode).toBe(401);
    expect((await t.request('GET', '/api/v1/me', { headers: { cookie: `palisade_session=${token}` } })).statusCode).toBe(401);
  });

  it('CSRF does not apply to a request the token authenticates; it still applies to the cookie, and a bad token is no way around it', async () => {
    const { token } = await create(alice, 'alice', 'csrf');
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const viaToken = await t.request('POST', '/api/v1/user/alice/api_token', {
      headers: { ...crossSite, ...bearer(token) },
      payload: { name: 'via token' },
    });
    expect(viaToken.statusCode, viaToken.body).toBe(201);
    const viaCookie = await t.request('POST', '/api/v1/user/alice/api_token', {
      cookie: alice,
      headers: crossSite,
      payload: { name: 'via cookie' },
    });
    expect(viaCookie.statusCode).toBe(403);
    expect(viaCookie.json().code).toBe('auth.csrf');
    const badToken = await t.request('POST', '/api/v1/user/alice/api_token', {
      cookie: alice,
      headers: { ...crossSite, authorization: 'Bearer nonsense' },
      payload: { name: 'via bad token' },
    });
    expect(badToken.statusCode).toBe(401);
    expect(await names(alice, 'alice')).not.toContain('via bad token');
    expect(await names(alice, 'alice')).not.toContain('via cookie');
  });

  it('last_used_at moves on use, at most once a minute', async () => {
    const { id, token } = await create(alice, 'alice', 'throttle');
    expect((await rowOf(id))?.lastUsedAt).toBeNull();
    expect((await t.request('GET', '/api/v1/me', { headers: bearer(token) })).statusCode).toBe(200);
    const first = (await rowOf(id))?.lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/api/v1/me', { headers: bearer(token) })).statusCode).toBe(200);
    expect((await rowOf(id))?.lastUsedAt?.getTime()).toBe(first?.getTime());
    // A minute later (moved back in the database), the next request writes again.
    await t.database.db.update(apiTokens).set({ lastUsedAt: sql`now() - interval '61 seconds'` }).where(eq(apiTokens.id, id));
    const before = (await rowOf(id))?.lastUsedAt?.getTime() ?? 0;
    expect((await t.request('GET', '/api/v1/me', { headers: bearer(token) })).statusCode).toBe(200);
    const after = (await rowOf(id))?.lastUsedAt?.getTime() ?? 0;
    expect(after - before).toBeGreaterThan(60_000);
    const listed = (await t.request('GET', '/api/v1/user/alice/api_token', { cookie: alice })).json() as {
      id: number;
      last_used_at?: string;
    }[];
    expect(listed.find((x) => x.id === id)?.last_used_at).toBe(new Date(after).toISOString());
  });
});
