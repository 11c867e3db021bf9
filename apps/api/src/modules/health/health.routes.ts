import { HealthSchema, LivenessSchema, type Readiness, ReadinessSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problems } from '#src/lib/route-schemas.js';
import type { HealthRepo } from './health.repo.js';

/** How long a readiness probe waits for the database before it answers 503. */
export const READINESS_TIMEOUT_MS = 2000;

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

  app.get(
    '/api/v1/health/live',
    {
      schema: { tags: ['system'], summary: 'Liveness: the process answers (no database call)', response: { 200: LivenessSchema } },
      config: { rateLimit: false },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/v1/health/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers, no migration runs and the process is not shutting down',
        response: { 200: ReadinessSchema, 503: ReadinessSchema },
      },
      config: { rateLimit: false },
    },
    async (_request, reply) => {
      const state = await readiness(health);
      // Draining (SIGTERM): still serving, but a load balancer must take this process out now.
      if (app.drain.draining) return reply.code(503).send({ ...state, status: 'not_ready', reason: 'shutting_down' });
      return reply.code(state.status === 'ready' ? 200 : 503).send(state);
    },
  );
};

async function readiness(health: HealthRepo): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READINESS_TIMEOUT_MS);
  });
  try {
    const running = await Promise.race([health.migrationsRunning(), timeout]);
    if (running === 'timeout') return { status: 'not_ready', database: 'unreachable', migrations: 'unknown' };
    if (running) return { status: 'not_ready', database: 'ok', migrations: 'running' };
    return { status: 'ready', database: 'ok', migrations: 'done' };
  } catch {
    return { status: 'not_ready', database: 'unreachable', migrations: 'unknown' };
  } finally {
    clearTimeout(timer);
  }
}
