import {
  CliTokenSchema,
  CreatedNetworkDeviceSchema,
  CreateNetworkDeviceBodySchema,
  DeviceIdParamsSchema,
  LocationIdParamsSchema,
  LocationParamsSchema,
  NetworkDeviceListQuerySchema,
  NetworkDeviceListSchema,
  NetworkDeviceSchema,
  PendingNetworkDeviceListSchema,
  StartCliBodySchema,
  SuggestedIpsSchema,
  UpdateNetworkDeviceBodySchema,
  ValidateIpsBodySchema,
  ValidateIpsResultSchema,
  WireGuardConfigTextSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';

export const networkDevicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['network devices'];
  const service = app.services.networkDevices;

  app.get(
    '/api/v1/device/network',
    {
      schema: {
        tags,
        summary: 'Network devices (paged, searchable)',
        querystring: NetworkDeviceListQuerySchema,
        response: { 200: NetworkDeviceListSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => service.list(request.query),
  );

  app.post(
    '/api/v1/device/network',
    {
      schema: {
        tags,
        summary: 'Add a network device (chosen or allocated addresses)',
        body: CreateNetworkDeviceBodySchema,
        response: { 201: CreatedNetworkDeviceSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(actorOf(request), request.body)),
  );

  app.get(
    '/api/v1/device/network/ip/:locationId',
    {
      schema: {
        tags,
        summary: 'First free address of each network of a location',
        params: LocationIdParamsSchema,
        response: { 200: SuggestedIpsSchema, ...problems(401, 403, 404) },
      },
    },
    async (request) => ({ ips: await service.suggestIps(request.params.locationId) }),
  );

  app.post(
    '/api/v1/device/network/ip/:location',
    {
      schema: {
        tags,
        summary: 'Check chosen addresses (invalid, outside the location, in use)',
        params: LocationParamsSchema,
        body: ValidateIpsBodySchema,
        response: { 200: ValidateIpsResultSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.validateIps(request.params.location, request.body.ips),
  );

  app.post(
    '/api/v1/device/network/start_cli',
    {
      schema: {
        tags,
        summary: 'CLI enrollment token for a new network device (shown once)',
        body: StartCliBodySchema,
        response: { 201: CliTokenSchema, ...problems(400, 401, 403, 404, 500) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.startCli(actorOf(request), request.body)),
  );

  app.post(
    '/api/v1/device/network/start_cli/:id',
    {
      schema: {
        tags,
        summary: 'CLI enrollment token for an existing network device (shown once)',
        params: DeviceIdParamsSchema,
        response: { 201: CliTokenSchema, ...problems(401, 403, 404, 500) },
      },
    },
    async (request, reply) => {
      const device = await service.get(request.params.id);
      const token = await service.startCli(actorOf(request), { name: device.name, location_id: device.location_id }, device.id);
      return reply.code(201).send(token);
    },
  );

  app.get(
    '/api/v1/device/network/pending',
    {
      schema: {
        tags,
        summary: 'Network devices announced with a CLI token and not enrolled yet (with the token expiry)',
        response: { 200: PendingNetworkDeviceListSchema, ...problems(401, 403) },
      },
    },
    () => service.pending(),
  );

  app.delete(
    '/api/v1/device/network/pending/:id',
    {
      schema: {
        tags,
        summary: 'Remove a pending network device (revokes its CLI token)',
        params: DeviceIdParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.deletePending(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/device/network/:id',
    {
      schema: {
        tags,
        summary: 'A network device',
        params: DeviceIdParamsSchema,
        response: { 200: NetworkDeviceSchema, ...problems(401, 403, 404) },
      },
    },
    (request) => service.get(request.params.id),
  );

  app.put(
    '/api/v1/device/network/:id',
    {
      schema: {
        tags,
        summary: 'Change a network device',
        params: DeviceIdParamsSchema,
        body: UpdateNetworkDeviceBodySchema,
        response: { 200: NetworkDeviceSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/device/network/:id',
    {
      schema: {
        tags,
        summary: 'Delete a network device',
        params: DeviceIdParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/device/network/:id/config',
    {
      schema: {
        tags,
        summary: "A network device's WireGuard config (text/plain)",
        params: DeviceIdParamsSchema,
        response: {
          200: { description: 'The WireGuard config', content: { 'text/plain': { schema: WireGuardConfigTextSchema } } },
          ...problems(401, 403, 404),
        },
      },
    },
    async (request, reply) => reply.type('text/plain; charset=utf-8').send(await service.config(actorOf(request), request.params.id)),
  );
};
