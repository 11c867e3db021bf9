import {
  CreateWorkerJobBodySchema,
  PollWorkerBodySchema,
  RegisteredWorkerSchema,
  RegisterWorkerBodySchema,
  WorkerIdParamsSchema,
  WorkerJobResultBodySchema,
  WorkerJobSchema,
  WorkerRegistrationTokenSchema,
  WorkerSchema,
  WorkerTaskSchema,
} from '@palisade/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpProblem } from '#src/lib/problem.js';
import { problems } from '#src/lib/route-schemas.js';
import { originOf } from '#src/modules/events/event-actor.js';
import { actorOf } from '#src/plugins/session.js';
import { unauthenticatedStation, workerTokenOf } from './worker-auth.js';
import type { WorkersService } from './workers.service.js';

/**
 * `/worker/*` (spec §7, docs/provisioning.md). Admin routes: stations, the registration token, jobs.
 * Station routes (access `worker`, ADR-007): register, poll (heartbeat + long-poll for a job), and
 * report a job's result, each with `Authorization: Worker <token>`.
 */
export const workersRoutes: FastifyPluginAsyncZod<{ service: WorkersService }> = async (app, { service }) => {
  const tags = ['provisioning'];
  app.decorateRequest('worker', null);
  // Before the server waits for in-flight requests: waiting polls answer 204 instead of holding it up.
  app.addHook('preClose', async () => service.signal.close());

  /** The station routes' check: their token (401 first), then the module (404 while disabled). */
  const moduleEnabled = async () => {
    if (!(await app.services.settings.moduleFlags()).worker) {
      throw new HttpProblem(404, 'module.disabled', 'The Provisioning module is disabled.');
    }
  };
  const requireStation = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = workerTokenOf(request);
    const worker = token === undefined ? undefined : await service.authenticate(token);
    if (!worker) throw unauthenticatedStation(reply);
    await moduleEnabled();
    request.worker = worker;
  };
  const requireRegistrationToken = async (request: FastifyRequest, reply: FastifyReply) => {
    if (workerTokenOf(request) === undefined) throw unauthenticatedStation(reply);
    await moduleEnabled();
  };
  const stationOf = (request: FastifyRequest) => {
    if (!request.worker) throw new Error('station route without its token check');
    return request.worker;
  };

  app.get(
    '/api/v1/worker',
    {
      schema: {
        tags,
        summary: 'Provisioning stations and whether each is available',
        response: { 200: z.array(WorkerSchema), ...problems(401, 403) },
      },
    },
    () => service.list(),
  );

  app.get(
    '/api/v1/worker/token',
    {
      schema: {
        tags,
        summary: 'The registration token a provisioning station starts with',
        response: { 200: WorkerRegistrationTokenSchema, ...problems(401, 403) },
      },
    },
    async () => ({ token: await service.registrationToken() }),
  );

  app.post(
    '/api/v1/worker/job',
    {
      schema: {
        tags,
        summary: 'Provision a YubiKey for a user at a station (answers the job id)',
        body: CreateWorkerJobBodySchema,
        response: { 201: z.object({ id: z.number().int() }), ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createJob(actorOf(request), request.body)),
  );

  app.get(
    '/api/v1/worker/:id',
    {
      schema: {
        tags,
        summary: 'A provisioning job’s status: in progress, error (with the text) or success',
        params: WorkerIdParamsSchema,
        response: { 200: WorkerJobSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => service.job(request.params.id),
  );

  app.delete(
    '/api/v1/worker/:id',
    {
      schema: {
        tags,
        summary: 'Delete a provisioning station (its token stops working)',
        params: WorkerIdParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/worker/register',
    {
      preValidation: requireRegistrationToken,
      schema: {
        tags,
        summary: 'Station: register with the registration token; answers the station’s own token',
        body: RegisterWorkerBodySchema,
        response: { 201: RegisteredWorkerSchema, ...problems(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const token = workerTokenOf(request) ?? '';
      const registered = await service.register(token, request.body.name, originOf(request)).catch((error: unknown) => {
        if (error instanceof HttpProblem && error.status === 401) throw unauthenticatedStation(reply);
        throw error;
      });
      return reply.code(201).send(registered);
    },
  );

  app.post(
    '/api/v1/worker/poll',
    {
      preValidation: requireStation,
      schema: {
        tags,
        summary: 'Station: heartbeat, and wait up to wait_seconds for a job (204 when none came)',
        body: PollWorkerBodySchema,
        response: { 200: WorkerTaskSchema, 204: z.null(), ...problems(400, 401) },
      },
    },
    async (request, reply) => {
      // The station gave up on the request (its timeout, a restart, a proxy): stop waiting for it.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const task = await service.poll(stationOf(request), request.ip, request.body.wait_seconds, gone.signal);
      return task ? task : reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/worker/job/:id/heartbeat',
    {
      preValidation: requireStation,
      schema: {
        tags,
        summary: 'Station: it works on the job (the first heartbeat takes it); 409 once the job is no longer in progress',
        params: WorkerIdParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.jobHeartbeat(stationOf(request), request.ip, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/worker/job/:id/result',
    {
      preValidation: requireStation,
      schema: {
        tags,
        summary:
          'Station: report a job’s result (the card serial and its public keys, or the error); a repeat of the same result answers the job unchanged',
        params: WorkerIdParamsSchema,
        body: WorkerJobResultBodySchema,
        response: { 200: WorkerJobSchema, ...problems(400, 401, 404, 409) },
      },
    },
    (request) => service.report(stationOf(request), request.ip, request.params.id, request.body),
  );
};
