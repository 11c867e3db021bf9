import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '#src/lib/problem.js';

export function findWebDist(explicit: string | undefined): string | undefined {
  const candidates = explicit ? [explicit] : ['../../web/dist', '../../../web/dist'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  return candidates.find((dir) => existsSync(`${dir}/index.html`));
}

/** The built console at `/`, with index.html for any other GET outside `/api` (SPA routes). */
export const staticWebPlugin = fp(async (app: FastifyInstance, opts: { webDist: string | undefined }) => {
  const root = opts.webDist;
  if (root) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders: (res, path) => {
        res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
    if (root && isPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    throw new HttpProblem(404, 'request.not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`);
  });
});
