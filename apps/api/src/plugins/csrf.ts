import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '#src/lib/problem.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * API.md §2: unsafe methods are refused when `Sec-Fetch-Site` says cross-site or `Origin` is not
 * our own. Requests without those headers (scripts, curl) pass. Requests an API token
 * authenticated are exempt (a browser never sends one on its own): the check runs after the
 * session plugin resolved the caller, so the exemption rests on the token, never on the header.
 */
export const csrfPlugin = fp(async (app: FastifyInstance, opts: { publicUrl?: string | undefined }) => {
  const publicOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : undefined;
  app.addHook('preParsing', async (request) => {
    if (!UNSAFE.has(request.method) || !request.url.startsWith('/api/')) return;
    if (request.session?.apiTokenId !== undefined) return;
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new HttpProblem(403, 'auth.csrf', 'Cross-site request refused.');
    }
    const origin = request.headers.origin;
    if (origin === undefined) return;
    const own = new Set<string>();
    if (publicOrigin) own.add(publicOrigin);
    const host = request.headers.host;
    if (host) {
      own.add(`http://${host}`);
      own.add(`https://${host}`);
    }
    if (!own.has(origin)) throw new HttpProblem(403, 'auth.csrf', 'Cross-site request refused.');
  });
});
