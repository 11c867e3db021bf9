import { HealthSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problems } from '#src/lib/route-schemas.js';
import type { HealthRepo } from './health.repo.js';

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthRepo }> = async (app, { health }) => {
  app.get(
    '/api/v1/health',
    {
      schema: { tags: ['system'], summary: 'Liveness and database check', response: { 200: HealthSchema, ...problems(503) } },
      config: { rateLimit: false },
    },
    async () => {
      await health.ping();
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );
};
