import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { accessPlugin } from '#src/plugins/access.js';

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
