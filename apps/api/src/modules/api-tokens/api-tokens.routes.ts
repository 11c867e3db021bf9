import {
  ApiTokenParamsSchema,
  ApiTokenSchema,
  CreateApiTokenBodySchema,
  CreatedApiTokenSchema,
  RenameApiTokenBodySchema,
  UsernameParamsSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';

/** `/user/{username}/api_token` (spec §7): a user's personal API tokens (docs/api.md). */
export const apiTokensRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.apiTokens;
  const tags = ['api_tokens'];

  app.get(
    '/api/v1/user/:username/api_token',
    {
      schema: {
        tags,
        summary: "A user's API tokens (never their secrets)",
        params: UsernameParamsSchema,
        response: { 200: z.array(ApiTokenSchema), ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.list(request.params.username),
  );

  app.post(
    '/api/v1/user/:username/api_token',
    {
      schema: {
        tags,
        summary: 'Create an API token; the answer carries the token, which cannot be read again',
        params: UsernameParamsSchema,
        body: CreateApiTokenBodySchema,
        response: { 201: CreatedApiTokenSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const created = await service.create(actorOf(request), request.params.username, request.body.name);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  );

  app.delete(
    '/api/v1/user/:username/api_token/:id',
    {
      schema: {
        tags,
        summary: 'Delete an API token: requests with it are refused at once',
        params: ApiTokenParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.username, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/user/:username/api_token/:id/rename',
    {
      schema: {
        tags,
        summary: 'Rename an API token',
        params: ApiTokenParamsSchema,
        body: RenameApiTokenBodySchema,
        response: { 200: ApiTokenSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.rename(actorOf(request), request.params.username, request.params.id, request.body.name),
  );
};
