import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** CSP without inline scripts, no framing, nosniff, a strict referrer policy. */
const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
};

const middleware = helmet(OPTIONS);

/**
 * The same headers for replies that never pass the route hooks (router-level errors such as a bad
 * URL encoding or an over-long parameter).
 */
export function applySecurityHeaders(req: IncomingMessage, res: ServerResponse): void {
  middleware(req, res, () => undefined);
}

export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  // The same options object; @fastify/helmet's type is helmet's, widened by its own flags.
  await app.register(fastifyHelmet, OPTIONS as FastifyHelmetOptions);
});
