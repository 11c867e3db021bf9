import {
  CreateDeviceBodySchema,
  CreatedDeviceSchema,
  DeviceConfigParamsSchema,
  DeviceIdParamsSchema,
  DeviceListQuerySchema,
  DeviceListSchema,
  DeviceSchema,
  UpdateDeviceBodySchema,
  UsernameParamsSchema,
  WireGuardConfigTextSchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';

export const devicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['devices'];
  const devices = app.services.devices;

  app.post(
    '/api/v1/device/:username',
    {
      schema: {
        tags,
        summary: 'Add a device; it joins every location the user may use',
        params: UsernameParamsSchema,
        body: CreateDeviceBodySchema,
        response: { 201: CreatedDeviceSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await devices.create(actorOf(request), request.params.username, request.body)),
  );

  app.get(
    '/api/v1/device',
    {
      schema: {
        tags,
        summary: 'All user devices (paged)',
        querystring: DeviceListQuerySchema,
        response: { 200: DeviceListSchema, ...problems(400, 401, 403) },
      },
    },
    (request) => devices.list(request.query),
  );

  app.get(
    '/api/v1/device/user/:username',
    {
      schema: {
        tags,
        summary: "A user's devices",
        params: UsernameParamsSchema,
        response: { 200: z.array(DeviceSchema), ...problems(401, 403, 404) },
      },
    },
    (request) => devices.listForUser(request.params.username),
  );

  app.get(
    '/api/v1/device/:id',
    {
      schema: {
        tags,
        summary: 'A device (owner or admin)',
        params: DeviceIdParamsSchema,
        response: { 200: DeviceSchema, ...problems(401, 403, 404) },
      },
    },
    (request) => devices.get(actorOf(request), request.params.id),
  );

  app.put(
    '/api/v1/device/:id',
    {
      schema: {
        tags,
        summary: 'Rename a device or change its key (owner or admin)',
        params: DeviceIdParamsSchema,
        body: UpdateDeviceBodySchema,
        response: { 200: DeviceSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => devices.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/device/:id',
    {
      schema: {
        tags,
        summary: 'Delete a device (owner or admin)',
        params: DeviceIdParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await devices.delete(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/network/:network_id/device/:device_id/config',
    {
      schema: {
        tags,
        summary: "A device's WireGuard config for one location (text/plain; PrivateKey is a placeholder)",
        params: DeviceConfigParamsSchema,
        response: {
          200: { description: 'The WireGuard config', content: { 'text/plain': { schema: WireGuardConfigTextSchema } } },
          ...problems(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const config = await devices.config(actorOf(request), request.params.network_id, request.params.device_id);
      return reply.type('text/plain; charset=utf-8').send(config);
    },
  );
};
