import { RenameYubikeyBodySchema, UsernameParamsSchema, YubikeyParamsSchema, YubikeySchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { YubikeysService } from './yubikeys.service.js';

/** `/user/{username}/yubikey` (spec §7): a user's provisioned YubiKeys (docs/provisioning.md). */
export const yubikeysRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const service = new YubikeysService(db);
  const tags = ['keys'];

  app.get(
    '/api/v1/user/:username/yubikey',
    {
      schema: {
        tags,
        summary: "A user's YubiKeys (their keys are the authentication keys with the card's serial)",
        params: UsernameParamsSchema,
        response: { 200: z.array(YubikeySchema), ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.list(request.params.username),
  );

  app.delete(
    '/api/v1/user/:username/yubikey/:id',
    {
      schema: {
        tags,
        summary: 'Delete a YubiKey record and the card’s authentication keys',
        params: YubikeyParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.username, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/user/:username/yubikey/:id/rename',
    {
      schema: {
        tags,
        summary: 'Rename a YubiKey',
        params: YubikeyParamsSchema,
        body: RenameYubikeyBodySchema,
        response: { 200: YubikeySchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.rename(actorOf(request), request.params.username, request.params.id, request.body.name),
  );
};
