import { findRouteRule, type RouteRule } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '#src/lib/problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    rule?: RouteRule;
  }
}

/**
 * Every `/api/v1` route must have an entry in the contracts' permission table (registration
 * fails otherwise); this hook enforces it before the body is validated.
 */
export const accessPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/v1')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const rule = findRouteRule(method === 'HEAD' ? 'GET' : method, route.url);
      if (!rule) throw new Error(`Route ${method} ${route.url} has no entry in the permission table (contracts/access.ts)`);
      route.config = { ...(route.config ?? {}), rule };
    }
  });

  app.addHook('preValidation', async (request) => {
    const rule = request.routeOptions.config.rule;
    if (!rule || rule.access === 'public') return;
    const session = request.session;
    if (session?.state !== 'active') {
      if (session?.state === 'mfa_pending') throw new HttpProblem(401, 'auth.mfa_required', 'Multi-factor authentication is required.');
      throw new HttpProblem(401, 'auth.unauthenticated', 'You need to sign in.');
    }
    if (session.isAdmin) return;
    if (rule.access === 'admin') throw new HttpProblem(403, 'auth.forbidden', 'Administrator rights are required.');
    if (rule.access === 'self_or_admin') {
      const username = (request.params as { username?: string }).username;
      if (!username || username.toLowerCase() !== session.username.toLowerCase()) {
        throw new HttpProblem(403, 'auth.forbidden', 'You can only act on your own account.');
      }
    }
  });
});
