import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#test/helpers.js';

/** The provider's paths next to the console's SPA fallback and the module flag. */
describe('OpenID provider mount', () => {
  let t: TestApp;
  let webDist: string;

  beforeAll(async () => {
    webDist = await mkdtemp(join(tmpdir(), 'palisade-web-'));
    await writeFile(join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    t = await createTestApp({ PUBLIC_URL: 'https://vpn.example.com' }, { webDist });
  });
  afterAll(async () => {
    await t.app.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('serves discovery, not the console, at /.well-known/openid-configuration; the issuer is PUBLIC_URL', async () => {
    const res = await t.request('GET', '/.well-known/openid-configuration');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toMatchObject({ issuer: 'https://vpn.example.com', token_endpoint: 'https://vpn.example.com/api/v1/oidc/token' });
    const page = await t.request('GET', '/consent?interaction=abc');
    expect(page.body).toContain('console');
  });

  it('answers 404 module.disabled on the provider paths while the openid module is off', async () => {
    const admin = await t.loginAdmin();
    expect((await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { openid_enabled: false } })).statusCode).toBe(200);
    try {
      for (const url of ['/.well-known/openid-configuration', '/api/v1/oidc/jwks']) {
        const res = await t.request('GET', url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ code: 'module.disabled' });
      }
    } finally {
      await t.request('PATCH', '/api/v1/settings', { cookie: admin, payload: { openid_enabled: true } });
    }
  });
});

/** Fastify's access log covers the provider's requests too (hijacked replies): one line each. */
describe('OpenID provider access log', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logger: undefined, logStream: { write: (line: string) => void lines.push(line) } });
  });
  afterAll(() => t.app.close());

  it('logs each provider request once, with its status and response time', async () => {
    lines.length = 0;
    expect((await t.request('GET', '/api/v1/oidc/jwks')).statusCode).toBe(200);
    expect((await t.request('POST', '/api/v1/oidc/token', { payload: 'grant_type=refresh_token' })).statusCode).toBe(400);
    const completed = lines
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string }; res?: { statusCode?: number }; responseTime?: number })
      .filter((entry) => entry.msg === 'request completed');
    expect(completed.map((entry) => [entry.req?.url, entry.res?.statusCode])).toEqual([
      ['/api/v1/oidc/jwks', 200],
      ['/api/v1/oidc/token', 400],
    ]);
    for (const entry of completed) expect(entry.responseTime).toEqual(expect.any(Number));
  });
});
