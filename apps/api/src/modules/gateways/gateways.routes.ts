import { GatewayParamsSchema, GatewaySchema, GatewayTokenSchema, LocationGatewaysSchema, NetworkIdParamsSchema } from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { actorOf } from '#src/plugins/session.js';

/** Gateway token and status routes (spec §7 Networks: token, gateways). */
export const gatewaysRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['gateways'];
  const gateways = app.services.gateways;

  app.get(
    '/api/v1/network/gateways',
    {
      schema: {
        tags,
        summary: 'Gateways of every location, with each location’s summary (all, some or none connected)',
        response: { 200: z.array(LocationGatewaysSchema), ...problems(401, 403) },
      },
    },
    () => gateways.listAll(),
  );

  app.get(
    '/api/v1/network/:id/gateways',
    {
      schema: {
        tags,
        summary: 'Gateways of a location',
        params: NetworkIdParamsSchema,
        response: { 200: z.array(GatewaySchema), ...problems(401, 403, 404) },
      },
    },
    (request) => gateways.listFor(request.params.id),
  );

  app.delete(
    '/api/v1/network/:id/gateways/:gatewayId',
    {
      schema: {
        tags,
        summary: 'Forget a gateway (its stream, if connected, is closed)',
        params: GatewayParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await gateways.delete(userActor(actorOf(request)), request.params.id, request.params.gatewayId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/network/:id/token',
    {
      schema: {
        tags,
        summary: 'The location’s gateway token (created on first read) and the gRPC URL gateways dial',
        params: NetworkIdParamsSchema,
        response: { 200: GatewayTokenSchema, ...problems(401, 403, 404, 500) },
      },
    },
    (request) => gateways.token(request.params.id, request.hostname),
  );

  app.post(
    '/api/v1/network/:id/token',
    {
      schema: {
        tags,
        summary: 'Rotate the gateway token; gateways holding the old one are disconnected at once',
        params: NetworkIdParamsSchema,
        response: { 200: GatewayTokenSchema, ...problems(401, 403, 404, 500) },
      },
    },
    (request) => gateways.rotate(userActor(actorOf(request)), request.params.id, request.hostname),
  );
};
