import { type LoginSuccess, LoginSuccessSchema } from '@palisade/contracts';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '#src/lib/problem.js';
import { isProviderPath, type OidcHost } from './host.js';

/**
 * The security headers' CSP, without `form-action`: the provider's form_post response page posts
 * the code to the app's own origin (the provider adds its inline script's hash to `script-src`).
 */
function allowFormPostToApps(res: ServerResponse): void {
  const csp = res.getHeader('content-security-policy');
  if (typeof csp !== 'string') return;
  const directives = csp.split(';').filter((d) => !d.trim().startsWith('form-action'));
  res.setHeader('content-security-policy', directives.join(';'));
}

/** oidc-provider's interaction cookie (path /api/v1: it reaches the sign-in routes). */
const INTERACTION_COOKIE = '_interaction';

/**
 * Hands the provider's paths (`/.well-known/openid-configuration`, `/api/v1/oidc/…`) to
 * oidc-provider before Fastify parses a body or runs its other hooks (CSRF, session: the provider
 * authenticates clients and users itself). Registered before those hooks; the rate limiter and
 * security headers registered earlier still apply. Fastify's access log covers these requests like
 * the rest (one line each, written when the raw response finishes).
 * While the openid module is disabled the paths answer 404 `module.disabled`.
 *
 * Every completed sign-in (a 200 LoginSuccess: `POST /auth`, the MFA steps) also carries `url`
 * when this browser has an OpenID authorization waiting (API.md §2): the console goes there.
 */
export const oidcMountPlugin = fp(async (app: FastifyInstance, opts: { host: OidcHost; openidEnabled: () => Promise<boolean> }) => {
  opts.host.attach(app);
  app.decorate('oidc', opts.host);
  app.addHook('onReady', async () => opts.host.start(app.log));
  app.addHook('preClose', async () => opts.host.stop());
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode !== 200 || request.routeOptions.schema?.response?.[200 as never] !== LoginSuccessSchema) return payload;
    if (!request.headers.cookie?.includes(`${INTERACTION_COOKIE}=`) || !(await opts.openidEnabled())) return payload;
    const signedIn = payload as LoginSuccess;
    if (!request.issuedSessionToken) return payload;
    const url = await opts.host.continueAfterLogin(request.raw, reply.raw, request.issuedSessionToken);
    return url ? { ...signedIn, url } : payload;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!isProviderPath(request.url)) return;
    if (!(await opts.openidEnabled())) throw new HttpProblem(404, 'module.disabled', 'The OpenID module is disabled.');
    allowFormPostToApps(reply.raw);
    // Fastify's access log still writes the request's line when the raw response finishes.
    reply.hijack();
    try {
      await opts.host.handle(request.raw, reply.raw);
    } catch (err) {
      request.log.error({ err }, 'OpenID provider failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/problem+json' });
        reply.raw.end(JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, code: 'internal' }));
      }
    }
  });
});
