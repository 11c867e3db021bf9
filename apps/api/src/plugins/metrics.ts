import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { HttpProblem } from '#src/lib/problem.js';
import type { ApiMetrics } from '#src/modules/metrics/api-metrics.js';

export interface MetricsPluginOptions {
  metrics: ApiMetrics;
  /** METRICS_TOKEN: without it there is no /metrics route (404), see docs/decisions/ADR-009-metrics-bearer-token.md. */
  token: string | undefined;
}

/** Requests that matched no route share one label value, whatever URL they asked for. */
export const UNMATCHED_ROUTE = 'unmatched';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Counts every answered request by route template (never the raw URL) and serves the
 * Prometheus text at `GET /metrics` to callers presenting `Authorization: Bearer METRICS_TOKEN`.
 */
const plugin: FastifyPluginAsync<MetricsPluginOptions> = async (app, { metrics, token }) => {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  if (!token) return;
  const expected = digest(token);
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    const presented = /^Bearer\s+(\S{1,512})$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new HttpProblem(401, 'auth.unauthenticated', 'The metrics endpoint needs the METRICS_TOKEN as a bearer token.');
    }
    return reply.type(metrics.contentType).send(await metrics.exposition());
  });
};

export const metricsPlugin = fp(plugin, { name: 'metrics' });
