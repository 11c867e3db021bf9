import {
  AuthKeyParamsSchema,
  AuthKeySchema,
  AuthorizedKeysTextSchema,
  CreateAuthKeyBodySchema,
  RenameAuthKeyBodySchema,
  UsernameParamsSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { AuthKeysService } from './auth-keys.service.js';

/** `/user/{username}/auth_key` (spec §7) and the public authorized_keys read (docs/ssh-keys.md). */
export const authKeysRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const service = new AuthKeysService(db);
  const tags = ['keys'];

  app.get(
    '/api/v1/user/:username/auth_key',
    {
      schema: {
        tags,
        summary: "A user's SSH and GPG public keys",
        params: UsernameParamsSchema,
        response: { 200: z.array(AuthKeySchema), ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.list(request.params.username),
  );

  app.post(
    '/api/v1/user/:username/auth_key',
    {
      schema: {
        tags,
        summary: 'Add an SSH public key (ed25519, ecdsa, RSA ≥ 2048 bits) or an armored GPG public key',
        params: UsernameParamsSchema,
        body: CreateAuthKeyBodySchema,
        response: { 201: AuthKeySchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const key = await service.create(actorOf(request), request.params.username, request.body);
      return reply.code(201).send(key);
    },
  );

  app.delete(
    '/api/v1/user/:username/auth_key/:id',
    {
      schema: {
        tags,
        summary: 'Delete an authentication key',
        params: AuthKeyParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.username, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/user/:username/auth_key/:id/rename',
    {
      schema: {
        tags,
        summary: 'Rename an authentication key',
        params: AuthKeyParamsSchema,
        body: RenameAuthKeyBodySchema,
        response: { 200: AuthKeySchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.rename(actorOf(request), request.params.username, request.params.id, request.body.name),
  );

  app.get(
    '/api/v1/user/:username/ssh_keys',
    {
      schema: {
        tags,
        summary: "A user's SSH keys as authorized_keys lines (public; empty for unknown or disabled users)",
        params: UsernameParamsSchema,
        response: {
          200: { description: 'authorized_keys lines', content: { 'text/plain': { schema: AuthorizedKeysTextSchema } } },
          ...problems(400),
        },
      },
    },
    async (request, reply) => {
      const lines = await service.authorizedKeys(request.params.username);
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(lines);
    },
  );
};
