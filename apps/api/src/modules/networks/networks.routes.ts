import {
  ImportNetworkBodySchema,
  ImportNetworkResultSchema,
  MapDevicesBodySchema,
  NetworkBodySchema,
  NetworkIdParamsSchema,
  NetworkSchema,
  PendingPeersSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { actorOf } from '#src/plugins/session.js';

/** Limit of `POST /network/import` (a WireGuard config of up to 4 MiB, JSON-encoded). */
export const IMPORT_BODY_LIMIT = 5 * 1024 * 1024;

export const networksRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['locations'];
  const networks = app.services.networks;

  app.get(
    '/api/v1/network',
    { schema: { tags, summary: 'List locations', response: { 200: z.array(NetworkSchema), ...problems(401, 403) } } },
    () => networks.list(),
  );

  app.post(
    '/api/v1/network',
    {
      schema: { tags, summary: 'Create a location', body: NetworkBodySchema, response: { 201: NetworkSchema, ...problems(400, 401, 403) } },
    },
    async (request, reply) => reply.code(201).send(await networks.create(userActor(actorOf(request)), request.body)),
  );

  app.post(
    '/api/v1/network/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Create a location from a WireGuard server config; returns its peers',
        body: ImportNetworkBodySchema,
        response: { 201: ImportNetworkResultSchema, ...problems(400, 401, 403, 413) },
      },
    },
    async (request, reply) => reply.code(201).send(await networks.importConfig(userActor(actorOf(request)), request.body)),
  );

  app.get(
    '/api/v1/network/:id/devices',
    {
      schema: {
        tags,
        summary: 'Imported peers still waiting to be mapped to users',
        params: NetworkIdParamsSchema,
        response: { 200: PendingPeersSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => networks.pendingPeers(request.params.id),
  );

  app.post(
    '/api/v1/network/:id/devices',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Map imported peers to users (all or nothing); mapped peers stop being pending',
        params: NetworkIdParamsSchema,
        body: MapDevicesBodySchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await networks.require(request.params.id);
      await app.services.networkDevices.mapImported(actorOf(request), request.params.id, request.body.devices);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/network/:id',
    {
      schema: { tags, summary: 'A location', params: NetworkIdParamsSchema, response: { 200: NetworkSchema, ...problems(401, 403, 404) } },
    },
    (request) => networks.get(request.params.id),
  );

  app.put(
    '/api/v1/network/:id',
    {
      schema: {
        tags,
        summary: 'Change a location (device addresses follow in the same transaction)',
        params: NetworkIdParamsSchema,
        body: NetworkBodySchema,
        response: { 200: NetworkSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    (request) => networks.update(userActor(actorOf(request)), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/network/:id',
    {
      schema: {
        tags,
        summary: 'Delete a location',
        params: NetworkIdParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404, 500) },
      },
    },
    async (request, reply) => {
      await networks.delete(userActor(actorOf(request)), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
