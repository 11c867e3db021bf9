import { UpdateInfoSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import type { UpdateChecker } from './update-checker.js';

export const updatesRoutes: FastifyPluginAsyncZod<{ checker: UpdateChecker }> = async (app, { checker }) => {
  app.get(
    '/api/v1/updates',
    {
      schema: {
        tags: ['system'],
        summary: 'The newest release above the running version (admins; spec §6); 204 when there is none',
        description:
          'Answers from the result of the last background check of the release feed (docs/updates.md); never waits on the network.',
        response: { 200: UpdateInfoSchema, 204: z.null(), ...problems(401, 403) },
      },
    },
    async (_request, reply) => {
      const update = checker.latest();
      if (!update) return reply.code(204).send(null);
      return update;
    },
  );
};
