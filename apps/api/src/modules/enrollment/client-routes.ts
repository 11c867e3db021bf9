import { RedeemCliTokenBodySchema, RedeemedCliTokenSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { originOf } from '#src/modules/events/event-actor.js';
import { ClientCliService } from './client-cli.service.js';

/** The token-only client API (docs/cli.md): no session; the one-time token is the credential. */
export const enrollmentClientRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const service = new ClientCliService(db);

  app.post(
    '/api/v1/enrollment/client/network_device',
    {
      schema: {
        tags: ['network devices'],
        summary: 'Redeem a CLI enrollment token with the machine’s WireGuard public key (the `palisade enroll` command)',
        body: RedeemCliTokenBodySchema,
        response: { 201: RedeemedCliTokenSchema, ...problems(400, 404, 409, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.redeem(request.body, originOf(request))),
  );
};
