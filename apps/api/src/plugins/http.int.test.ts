import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTE_ACCESS } from '@palisade/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '#src/app.js';
import { ADMIN_PASSWORD, createTestApp, problemOf, resetDatabase, snapshot, type TestApp, USER_PASSWORD, userBody } from '#test/helpers.js';

/** Cross-cutting HTTP behaviour: CSRF, security headers, request ids, body limits, problem+json. */
describe('HTTP conventions', () => {
  let t: TestApp;
  let webDist: string;
  let admin: string;
  beforeAll(async () => {
    webDist = await mkdtemp(join(tmpdir(), 'palisade-web-'));
    await writeFile(
      join(webDist, 'index.html'),
      '<!doctype html><title>Palisade</title><script type="module" src="/assets/app.js"></script>',
    );
    t = await createTestApp({ PUBLIC_URL: 'https://vpn.example.com' }, { webDist });
  });
  beforeEach(async () => {
    await resetDatabase(t.database);
    admin = await t.loginAdmin();
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  describe('CSRF', () => {
    const unsafe = (headers: Record<string, string>) => [
      () => t.request('POST', '/api/v1/user', { cookie: admin, headers, payload: userBody('csrf') }),
      () => t.request('PUT', '/api/v1/settings', { cookie: admin, headers, payload: { instance_name: 'x' } }),
      () => t.request('PATCH', '/api/v1/settings', { cookie: admin, headers, payload: { instance_name: 'Pwned' } }),
      () => t.request('DELETE', '/api/v1/group/admin', { cookie: admin, headers }),
      () => t.request('POST', '/api/v1/group', { cookie: admin, headers, payload: { name: 'evil' } }),
      () => t.request('POST', '/api/v1/auth/logout', { cookie: admin, headers }),
    ];

    it.each([
      [{ origin: 'https://evil.example' }],
      [{ 'sec-fetch-site': 'cross-site' }],
      [{ origin: 'https://vpn.example.com', 'sec-fetch-site': 'cross-site' }],
      [{ origin: 'null' }],
      [{ origin: 'https://vpn.example.com.evil.example' }],
    ])('refuses cookie-authenticated unsafe requests with %j: 403 auth.csrf, nothing changes', async (headers) => {
      const before = await snapshot(t.database);
      for (const send of unsafe(headers)) {
        const res = await send();
        expect(problemOf(res)).toMatchObject({ status: 403, code: 'auth.csrf' });
      }
      expect(await snapshot(t.database)).toBe(before);
      // The session survived the refused logout.
      expect((await t.request('GET', '/api/v1/me', { cookie: admin })).statusCode).toBe(200);
    });

    it('lets same-origin requests through (the public URL or the Host), and header-less scripts', async () => {
      const own = await t.request('PATCH', '/api/v1/settings', {
        cookie: admin,
        headers: { origin: 'https://vpn.example.com', 'sec-fetch-site': 'same-origin' },
        payload: { instance_name: 'Same origin' },
      });
      expect(own.statusCode).toBe(200);
      const host = await t.request('PATCH', '/api/v1/settings', {
        cookie: admin,
        headers: { origin: 'http://localhost:80', host: 'localhost:80' },
        payload: { instance_name: 'Host origin' },
      });
      expect(host.statusCode).toBe(200);
      const script = await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { instance_name: 'Script' } });
      expect(script.statusCode).toBe(200);
      expect(script.json().instance_name).toBe('Script');
    });

    it('does not apply to safe methods', async () => {
      const res = await t.request('GET', '/api/v1/me', {
        cookie: admin,
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      expect(res.statusCode).toBe(200);
    });

    it('refuses a cross-site login too (login CSRF)', async () => {
      const res = await t.request('POST', '/api/v1/auth', {
        headers: { origin: 'https://evil.example' },
        payload: { username: 'admin', password: 'whatever' },
      });
      expect(problemOf(res)).toMatchObject({ status: 403, code: 'auth.csrf' });
      expect(res.headers['set-cookie']).toBeUndefined();
    });
  });

  describe('security headers', () => {
    const expectSecurityHeaders = (headers: Record<string, unknown>) => {
      const csp = String(headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
      expect(scriptSrc).toContain("'self'");
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).not.toContain("'unsafe-eval'");
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(headers['x-frame-options']).toBeDefined();
    };

    it('are set on API responses, errors and the console', async () => {
      for (const res of [
        await t.request('GET', '/api/v1/health'),
        await t.request('GET', '/api/v1/me'),
        await t.request('GET', '/api/v1/me', { cookie: admin }),
        await t.request('GET', '/'),
        await t.request('GET', '/users/alice'),
        // Router-level errors (bad URL encoding, over-long parameter) bypass the route hooks.
        await t.request('GET', '/api/v1/user/%E0%A4%A'),
        await t.request('GET', `/api/v1/user/${'x'.repeat(400)}`),
      ]) {
        expectSecurityHeaders(res.headers);
      }
    });

    it('the console index is served at / and for SPA routes, never for /api', async () => {
      const root = await t.request('GET', '/');
      expect(root.statusCode).toBe(200);
      expect(root.headers['content-type']).toMatch(/text\/html/);
      expect(root.body).toContain('<title>Palisade</title>');
      expect((await t.request('GET', '/settings/branding')).body).toContain('<title>Palisade</title>');
      const apiMiss = await t.request('GET', '/api/v1/nope');
      expect(problemOf(apiMiss)).toMatchObject({ status: 404, code: 'request.not_found' });
      expect(problemOf(await t.request('POST', '/somewhere'))).toMatchObject({ status: 404 });
    });
  });

  describe('session cookie', () => {
    it('is HttpOnly, SameSite=Lax and Secure when the public URL is https', async () => {
      const res = await t.request('POST', '/api/v1/auth', { payload: { username: 'admin', password: ADMIN_PASSWORD } });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/Path=\//);
    });
  });

  describe('request ids', () => {
    it('echoes a well-formed x-request-id, in the header and in problems', async () => {
      const res = await t.request('GET', '/api/v1/me', { headers: { 'x-request-id': 'trace-abc.123' } });
      expect(res.headers['x-request-id']).toBe('trace-abc.123');
      expect(res.json().request_id).toBe('trace-abc.123');
      const ok = await t.request('GET', '/api/v1/health', { headers: { 'x-request-id': 'health-1' } });
      expect(ok.headers['x-request-id']).toBe('health-1');
    });

    it('replaces a malformed one with a fresh id', async () => {
      const res = await t.request('GET', '/api/v1/health', { headers: { 'x-request-id': 'bad id\twith spaces' } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const long = await t.request('GET', '/api/v1/health', { headers: { 'x-request-id': 'x'.repeat(65) } });
      expect(long.headers['x-request-id']).not.toBe('x'.repeat(65));
      const fresh = await t.request('GET', '/api/v1/health');
      expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('bodies', () => {
    it('a body over 256 KiB is 413 problem+json and writes nothing', async () => {
      const before = await snapshot(t.database);
      const res = await t.request('POST', '/api/v1/user', {
        cookie: admin,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(userBody('big', { first_name: 'x'.repeat(BODY_LIMIT) })),
      });
      expect(problemOf(res)).toMatchObject({ status: 413, code: 'request.too_large' });
      expect(BODY_LIMIT).toBe(256 * 1024);
      expect(await snapshot(t.database)).toBe(before);
    });

    it('a body just under the limit is parsed (and then validated)', async () => {
      const res = await t.request('POST', '/api/v1/user', {
        cookie: admin,
        payload: userBody('big', { first_name: 'x'.repeat(BODY_LIMIT - 1000) }),
      });
      expect(problemOf(res)).toMatchObject({ status: 400, code: 'validation.failed' });
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])(
      'content type %s is 415 problem+json',
      async (type) => {
        const res = await t.request('POST', '/api/v1/group', { cookie: admin, headers: { 'content-type': type }, payload: 'name=evil' });
        expect(problemOf(res)).toMatchObject({ status: 415, code: 'request.unsupported_media_type' });
      },
    );

    it('malformed JSON is a 400 problem', async () => {
      for (const payload of ['{', '{"name":', 'nul', '{"name":"a",}', "{'name':'a'}"]) {
        const res = await t.request('POST', '/api/v1/group', { cookie: admin, headers: { 'content-type': 'application/json' }, payload });
        expect(problemOf(res).status).toBe(400);
      }
    });

    it('bodies nested as deep as the size limit allows are refused quickly, not with a 5xx', async () => {
      const depth = Math.floor((BODY_LIMIT - 100) / 6);
      for (const payload of [
        `${'['.repeat(depth * 2)}${']'.repeat(depth * 2)}`,
        `{"name":${'['.repeat(depth * 2)}${']'.repeat(depth * 2)}}`,
        `{"name":"x","members":${'['.repeat(depth * 2)}${']'.repeat(depth * 2)}}`,
        `{"name":"x","zz":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
        `{"name":"x","zz":${'{"a":'.repeat(depth)}"\u0000"${'}'.repeat(depth)}}`,
      ]) {
        expect(payload.length).toBeLessThan(BODY_LIMIT);
        // Linear work: well under a second; a quadratic walk would take minutes and hit the test timeout.
        const res = await t.request('POST', '/api/v1/group', { cookie: admin, headers: { 'content-type': 'application/json' }, payload });
        expect(problemOf(res).status).toBe(400);
      }
    });

    it('an empty JSON body is a 400 problem', async () => {
      const res = await t.request('POST', '/api/v1/group', { cookie: admin, headers: { 'content-type': 'application/json' }, payload: '' });
      expect(problemOf(res).status).toBe(400);
    });

    it('a JSON prototype-poisoning body is refused', async () => {
      const res = await t.request('POST', '/api/v1/group', {
        cookie: admin,
        headers: { 'content-type': 'application/json' },
        payload: '{"name":"x","__proto__":{"is_admin":true}}',
      });
      expect(problemOf(res).status).toBe(400);
      expect((await t.request('GET', '/api/v1/group', { cookie: admin })).json()).toHaveLength(1);
    });
  });

  describe('no secrets in responses', () => {
    it('no route answers with a password hash', async () => {
      await t.newUser(admin, 'alice', { phone: '+1 555 0100' });
      await t.request('POST', '/api/v1/group', { cookie: admin, payload: { name: 'staff', members: ['alice'] } });
      const alice = await t.login('alice', USER_PASSWORD);
      const bodies = await Promise.all([
        t.request('GET', '/api/v1/me', { cookie: alice }),
        t.request('GET', '/api/v1/user/alice', { cookie: alice }),
        t.request('GET', '/api/v1/user', { cookie: admin }),
        t.request('GET', '/api/v1/user', { cookie: admin, query: { search: 'alice' } }),
        t.request('GET', '/api/v1/group', { cookie: admin }),
        t.request('GET', '/api/v1/group-info', { cookie: admin }),
        t.request('POST', '/api/v1/auth', { payload: { username: 'alice', password: USER_PASSWORD } }),
        t.request('POST', '/api/v1/user', { cookie: admin, payload: userBody('zoe') }),
      ]);
      for (const res of bodies) {
        expect(res.statusCode).toBeLessThan(300);
        expect(res.body).not.toMatch(/password_hash|passwordHash|\$argon2|session/i);
        expect(res.body).not.toContain(USER_PASSWORD);
      }
    });
  });

  describe('health and OpenAPI', () => {
    it('GET /health checks the database', async () => {
      const res = await t.request('GET', '/api/v1/health');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
    });

    it('GET /openapi.json documents every route of the permission table', async () => {
      const res = await t.request('GET', '/api/v1/openapi.json');
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toMatch(/^3\.1/);
      expect(doc.components.schemas).toHaveProperty('User');
      expect(doc.components.schemas).toHaveProperty('Problem');
      const documented = new Set<string>();
      for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
      }
      const expected = Object.keys(ROUTE_ACCESS).filter((k) => k !== 'GET /api/v1/openapi.json');
      expect(expected.filter((k) => !documented.has(k))).toEqual([]);
      expect(JSON.stringify(doc)).not.toMatch(/password_hash|passwordHash/);
    });

    it('the interactive docs page is served', async () => {
      const res = await t.request('GET', '/api/docs/');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    });
  });

  describe('global rate limit', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    });
    afterAll(() => limited.close());

    it('answers 429 request.rate_limited as problem+json past the limit; health is exempt', async () => {
      for (let i = 0; i < 3; i++) expect((await limited.request('GET', '/api/v1/settings_essentials')).statusCode).toBe(200);
      const res = await limited.request('GET', '/api/v1/settings_essentials');
      expect(problemOf(res)).toMatchObject({ status: 429, code: 'request.rate_limited' });
      expect((await limited.request('GET', '/api/v1/health')).statusCode).toBe(200);
      // The console's pages and assets are not limited (a page load fetches many chunks).
      expect((await limited.request('GET', '/assets/index.js')).statusCode).not.toBe(429);
      // Another client address has its own budget.
      expect((await limited.request('GET', '/api/v1/settings_essentials', { remoteAddress: '198.51.100.7' })).statusCode).toBe(200);
    });
  });
});
