import { RESERVED_USERNAMES, ROUTE_ACCESS, type RouteRule } from '@palisade/contracts';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accessPlugin } from '#src/plugins/access.js';
import { errorHandlerPlugin } from '#src/plugins/error-handler.js';
import { assertNamesNotShadowed, findShadowedNames } from '#src/plugins/route-shadowing.js';

describe('accessPlugin registration guard', () => {
  it('refuses to start with an /api/v1 route missing from the permission table', async () => {
    const app = Fastify({ logger: false });
    await app.register(accessPlugin);
    expect(() => app.get('/api/v1/not-in-the-table', async () => 'x')).toThrow(
      /GET \/api\/v1\/not-in-the-table has no entry in the permission table/,
    );
  });

  it('attaches the rule to listed routes (HEAD uses the GET rule) and ignores routes outside /api/v1', async () => {
    const app = Fastify({ logger: false });
    await app.register(accessPlugin);
    const seen: Record<string, unknown> = {};
    app.addHook('onRequest', async (request) => {
      seen[`${request.method} ${request.url}`] = request.routeOptions.config.rule;
    });
    app.decorateRequest('session', null);
    app.get('/api/v1/health', async () => 'ok');
    app.get('/elsewhere', async () => 'ok');
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/api/v1/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/elsewhere' })).statusCode).toBe(200);
    expect(seen['GET /api/v1/health']).toEqual({ access: 'public', permission: 'health.read' });
    expect(seen['HEAD /api/v1/health']).toEqual({ access: 'public', permission: 'health.read' });
    expect(seen['GET /elsewhere']).toBeUndefined();
  });
});

describe('names shadowed by static routes', () => {
  const table = Object.keys(ROUTE_ACCESS);

  it('the permission table reserves every username and group name a static route would shadow', () => {
    expect(RESERVED_USERNAMES).toEqual(expect.arrayContaining(['available', 'change_password', 'network', 'user']));
    expect(findShadowedNames(table)).toEqual([]);
    expect(() => assertNamesNotShadowed(table)).not.toThrow();
  });

  it('fails fast, naming the word, when a new static route shadows a valid name', () => {
    const routes = [...table, 'GET /api/v1/user/export', 'POST /api/v1/group/bulk'];
    expect(findShadowedNames(routes)).toEqual([
      { what: 'username', name: 'export' },
      { what: 'group name', name: 'bulk' },
    ]);
    expect(() => assertNamesNotShadowed(routes)).toThrow(/username 'export', group name 'bulk'/);
  });
});

describe('module gating', () => {
  it('puts every location, device, gateway, stats, ACL and device-enrolling route in the wireguard module, every webhook route in webhooks, every OpenID route in openid, every provisioning station route in worker', () => {
    for (const [key, rule] of Object.entries(ROUTE_ACCESS) as [string, RouteRule][]) {
      // Enrollment's device step, the token-only client API and the desktop activation token (whose
      // only use is that API) add devices: WireGuard routes too.
      const wireguardPath =
        / \/api\/v1\/(network|device|vpn_session|acl)(\/|$)/.test(key) ||
        / \/api\/v1\/enrollment\/(device|client\/)/.test(key) ||
        key === 'POST /api/v1/user/:username/start_desktop';
      const webhookPath = / \/api\/v1\/webhook(\/|$)/.test(key);
      // `/openid/provider`, `/openid/auth_info` and `/openid/callback` are signing in to Palisade with an
      // external provider (settings), not Palisade's own OpenID provider for apps: no module.
      const externalSignIn = / \/api\/v1\/openid\/(provider|auth_info|callback)(\/|$)/.test(key);
      const openidPath = !externalSignIn && / \/api\/v1\/(oauth|openid)(\/|$)|\/oauth_app(\/|$)/.test(key);
      const workerPath = / \/api\/v1\/worker(\/|$)/.test(key);
      const expected = wireguardPath ? 'wireguard' : webhookPath ? 'webhooks' : openidPath ? 'openid' : workerPath ? 'worker' : undefined;
      expect(rule.module, key).toBe(expected);
    }
  });

  it('a disabled module answers 404 module.disabled after the sign-in check; routes without a module never ask', async () => {
    const app = Fastify({ logger: false });
    await app.register(errorHandlerPlugin);
    const flags = { wireguard: false, webhooks: true, worker: true, openid: true };
    let reads = 0;
    await app.register(accessPlugin, {
      moduleFlags: () => {
        reads += 1;
        return flags;
      },
    });
    app.decorateRequest('session', null);
    let session: unknown = null;
    app.addHook('onRequest', async (request) => {
      request.session = session as typeof request.session;
    });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    const documented: Record<string, string[]> = {};
    app.addHook('onRoute', (route) => {
      documented[route.url] = Object.keys((route.schema?.response as object | undefined) ?? {});
    });
    app.get('/api/v1/network', { schema: { response: { 200: z.array(z.string()) } } }, async () => ['ok']);
    app.get('/api/v1/group', { schema: { response: { 200: z.array(z.string()) } } }, async () => ['ok']);
    await app.ready();
    // The module's routes document the 404 they may answer (OpenAPI, generated client).
    expect(documented).toEqual({ '/api/v1/network': ['200', '404'], '/api/v1/group': ['200'] });

    expect((await app.inject({ method: 'GET', url: '/api/v1/network' })).json()).toMatchObject({ status: 401 });
    session = { state: 'active', isAdmin: true, username: 'admin' };
    const disabled = await app.inject({ method: 'GET', url: '/api/v1/network' });
    expect(disabled.statusCode).toBe(404);
    expect(disabled.headers['content-type']).toContain('application/problem+json');
    expect(disabled.json()).toMatchObject({ code: 'module.disabled', detail: 'The WireGuard module is disabled.' });
    expect((await app.inject({ method: 'GET', url: '/api/v1/group' })).statusCode).toBe(200);
    flags.wireguard = true;
    expect((await app.inject({ method: 'GET', url: '/api/v1/network' })).statusCode).toBe(200);
    expect(reads).toBe(2);
  });
});
