import { DirectorySyncTestResultSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problems } from '#src/lib/route-schemas.js';
import type { DirectorySyncService } from './directory-sync.service.js';

export const directorySyncRoutes: FastifyPluginAsyncZod<{ service: DirectorySyncService }> = async (app, { service }) => {
  app.get(
    '/api/v1/test_directory_sync',
    {
      schema: {
        tags: ['settings'],
        summary: 'Test the directory sync connection',
        description:
          "Reads the directory of the configured provider (Google Workspace, Microsoft Entra ID, Okta, JumpCloud) with the saved credentials and reports how many users and groups (those matching group_match) it holds. 400 `directory_sync.not_configured` without such a provider; 400 `directory_sync.failed` with the directory's reason when it cannot be reached or refuses the credentials. Changes nothing.",
        response: { 200: DirectorySyncTestResultSchema, ...problems(400, 401, 403) },
      },
    },
    async () => service.test(),
  );
};
