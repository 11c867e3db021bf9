import { findRouteRule, type Module, ProblemSchema, type RouteRule } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '#src/lib/problem.js';
import { assertNamesNotShadowed } from './route-shadowing.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    rule?: RouteRule;
  }
}

export interface AccessOptions {
  /** The enabled modules, from memory (SettingsService.moduleFlags): no query per request. */
  moduleFlags?: () => Record<Module, boolean> | Promise<Record<Module, boolean>>;
  /**
   * The licence check for the writes of enterprise routes (LicenceService, from memory): throws
   * 402 `license.required` while enterprise features are off. Reads (GET) are never gated.
   */
  enterpriseCheck?: () => void | Promise<void>;
}

const MODULE_NAMES: Record<Module, string> = { wireguard: 'WireGuard', webhooks: 'Webhooks', worker: 'Provisioning', openid: 'OpenID' };

/**
 * Every `/api/v1` route must have an entry in the contracts' permission table (registration
 * fails otherwise); this hook enforces it before the body is validated. A route of a disabled
 * module answers 404 `module.disabled` to every signed-in caller. At start-up, no static route
 * may shadow a name that a name-addressed route (`/user/{username}`) could be asked for.
 */
export const accessPlugin = fp(async (app: FastifyInstance, options: AccessOptions) => {
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/v1')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const rule = findRouteRule(method === 'HEAD' ? 'GET' : method, route.url);
      if (!rule) throw new Error(`Route ${method} ${route.url} has no entry in the permission table (contracts/access.ts)`);
      route.config = { ...(route.config ?? {}), rule };
      routes.push(`${method} ${route.url}`);
      // A module's routes may answer 404 module.disabled: documented in each one's responses.
      const response = route.schema?.response as Record<number, unknown> | undefined;
      if (rule.module && response && !response[404]) route.schema = { ...route.schema, response: { ...response, 404: ProblemSchema } };
      // An enterprise write may answer 402 license.required (docs/licensing.md).
      const withModule = route.schema?.response as Record<number, unknown> | undefined;
      if (rule.enterprise && method !== 'GET' && withModule && !withModule[402]) {
        route.schema = { ...route.schema, response: { ...withModule, 402: ProblemSchema } };
      }
    }
  });
  app.addHook('onReady', async () => assertNamesNotShadowed(routes));

  app.addHook('preValidation', async (request) => {
    const rule = request.routeOptions.config.rule;
    if (!rule) return;
    const session = request.session;
    if (rule.access === 'mfa_pending') {
      if (session?.state !== 'mfa_pending') throw new HttpProblem(401, 'auth.unauthenticated', 'Sign in with your password first.');
      return;
    }
    // Station routes check their own token, then the module (modules/workers/worker-auth.ts).
    if (rule.access === 'worker') return;
    if (rule.access !== 'public' && session?.state !== 'active') {
      if (session?.state === 'mfa_pending') throw new HttpProblem(401, 'auth.mfa_required', 'Multi-factor authentication is required.');
      throw new HttpProblem(401, 'auth.unauthenticated', 'You need to sign in.');
    }
    if (rule.module && options.moduleFlags && !(await options.moduleFlags())[rule.module]) {
      throw new HttpProblem(404, 'module.disabled', `The ${MODULE_NAMES[rule.module]} module is disabled.`);
    }
    if (rule.access === 'public' || session?.isAdmin) return;
    if (rule.access === 'admin') throw new HttpProblem(403, 'auth.forbidden', 'Administrator rights are required.');
    if (rule.access === 'self_or_admin') {
      const username = (request.params as { username?: string }).username;
      if (!username || username.toLowerCase() !== session?.username.toLowerCase()) {
        throw new HttpProblem(403, 'auth.forbidden', 'You can only act on your own account.');
      }
    }
  });

  // After the access checks (a caller without access hears 401/403, not 402): enterprise writes
  // need enterprise features on. Licence routes and every read stay open (docs/licensing.md).
  app.addHook('preValidation', async (request) => {
    const rule = request.routeOptions.config.rule;
    if (!rule?.enterprise || request.method === 'GET' || request.method === 'HEAD' || !options.enterpriseCheck) return;
    await options.enterpriseCheck();
  });
});
