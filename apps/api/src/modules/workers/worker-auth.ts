import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WorkerRow } from './workers.repo.js';
import { HttpProblem } from '#src/lib/problem.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The provisioning station a `worker` route's token authenticated. */
    worker: WorkerRow | null;
  }
}

const WORKER_TOKEN = /^worker +([\x21-\x7e]{1,128})$/i;

/** The token of `Authorization: Worker <token>` (the station scheme, ADR-007), or undefined. */
export function workerTokenOf(request: FastifyRequest): string | undefined {
  return WORKER_TOKEN.exec(request.headers.authorization ?? '')?.[1];
}

export function unauthenticatedStation(reply: FastifyReply): HttpProblem {
  reply.header('www-authenticate', 'Worker');
  return new HttpProblem(401, 'auth.unauthenticated', 'A provisioning station token is required.');
}
