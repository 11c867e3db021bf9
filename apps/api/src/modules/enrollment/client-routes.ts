import {
  ActivatedDesktopSchema,
  RedeemCliTokenBodySchema,
  RedeemDesktopTokenBodySchema,
  RedeemedCliTokenSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '#src/db/client.js';
import { problems } from '#src/lib/route-schemas.js';
import { originOf } from '#src/modules/events/event-actor.js';
import { ClientCliService } from './client-cli.service.js';
import { ClientDesktopService } from './client-desktop.service.js';

/** The token-only client API (docs/cli.md): no session; the one-time token is the credential. */
export const enrollmentClientRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const service = new ClientCliService(db);
  const desktop = new ClientDesktopService(db, app.services.settings);

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

  app.post(
    '/api/v1/enrollment/client/desktop',
    {
      schema: {
        tags: ['devices'],
        summary: 'Activate a client with a desktop-activation token: registers its public key as a device of the token’s user',
        body: RedeemDesktopTokenBodySchema,
        response: { 201: ActivatedDesktopSchema, ...problems(400, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await desktop.redeem(request.body, originOf(request))),
  );
};
