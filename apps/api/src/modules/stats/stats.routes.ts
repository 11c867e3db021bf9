import { NetworkIdParamsSchema, NetworkStatsSchema, NetworkUsersStatsSchema, StatsQuerySchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problems } from '#src/lib/route-schemas.js';

/** Traffic stats routes (spec §7 Networks: stats). `?from=<UTC ISO timestamp>`, default now − 1 h. */
export const statsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['stats'];
  const stats = app.services.stats;

  app.get(
    '/api/v1/network/stats',
    {
      schema: {
        tags,
        summary: 'Traffic and active devices of all locations since `from`',
        querystring: StatsQuerySchema,
        response: { 200: NetworkStatsSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => stats.network(undefined, request.query.from),
  );

  app.get(
    '/api/v1/network/stats/users',
    {
      schema: {
        tags,
        summary: 'Devices active in any location since `from`, by user, with per-device series (Connected users)',
        querystring: StatsQuerySchema,
        response: { 200: NetworkUsersStatsSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => stats.users(undefined, request.query.from),
  );

  app.get(
    '/api/v1/network/:id/stats',
    {
      schema: {
        tags,
        summary: 'Traffic and active devices of a location since `from` (gateways summed per point in time)',
        params: NetworkIdParamsSchema,
        querystring: StatsQuerySchema,
        response: { 200: NetworkStatsSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => stats.network(request.params.id, request.query.from),
  );

  app.get(
    '/api/v1/network/:id/stats/users',
    {
      schema: {
        tags,
        summary: 'Devices active in a location since `from`, by user, with per-device series',
        params: NetworkIdParamsSchema,
        querystring: StatsQuerySchema,
        response: { 200: NetworkUsersStatsSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => stats.users(request.params.id, request.query.from),
  );
};
