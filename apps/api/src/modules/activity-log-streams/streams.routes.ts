import {
  ActivityLogStreamIdParamsSchema,
  ActivityLogStreamListSchema,
  ActivityLogStreamSchema,
  CreateActivityLogStreamBodySchema,
  UpdateActivityLogStreamBodySchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problems } from '#src/lib/route-schemas.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { actorOf } from '#src/plugins/session.js';
import type { StreamsService } from './streams.service.js';

/** Activity-log stream destinations (spec §7; enterprise-only per §6, marked in the permission table). */
export const activityLogStreamsRoutes: FastifyPluginAsyncZod<{ streams: StreamsService }> = async (app, { streams }) => {
  const tags = ['activity log streams'];

  app.get(
    '/api/v1/activity_log_stream',
    {
      schema: {
        tags,
        summary: 'Activity-log stream destinations, each with its delivery state (last success, last error, lag in events)',
        response: { 200: ActivityLogStreamListSchema, ...problems(401, 403) },
      },
    },
    () => streams.list(),
  );

  app.post(
    '/api/v1/activity_log_stream',
    {
      schema: {
        tags,
        summary: 'Add a destination (Vector or Logstash over HTTP); it receives events recorded from now on',
        body: CreateActivityLogStreamBodySchema,
        response: { 201: ActivityLogStreamSchema, ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await streams.create(userActor(actorOf(request)), request.body)),
  );

  app.put(
    '/api/v1/activity_log_stream/:id',
    {
      schema: {
        tags,
        summary: 'Replace a destination’s settings (an absent password keeps the current one, an empty one clears it)',
        params: ActivityLogStreamIdParamsSchema,
        body: UpdateActivityLogStreamBodySchema,
        response: { 200: ActivityLogStreamSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => streams.update(userActor(actorOf(request)), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/activity_log_stream/:id',
    {
      schema: {
        tags,
        summary: 'Remove a destination (events not yet delivered to it are dropped for it)',
        params: ActivityLogStreamIdParamsSchema,
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await streams.delete(userActor(actorOf(request)), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
