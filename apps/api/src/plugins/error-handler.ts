import type { FieldError } from '@palisade/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { boundMessage, FIELD_MESSAGES } from '#src/lib/field-messages.js';
import { applySecurityHeaders } from './security-headers.js';
import { isDatabaseUnavailable } from '#src/lib/db-errors.js';
import { HttpProblem, titleFor } from '#src/lib/problem.js';

interface ValidationItem {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

const STATUS_CODES: Record<number, HttpProblem['code']> = {
  401: 'auth.unauthenticated',
  403: 'auth.forbidden',
  404: 'request.not_found',
  405: 'request.method_not_allowed',
  413: 'request.too_large',
  414: 'request.malformed',
  415: 'request.unsupported_media_type',
  429: 'request.rate_limited',
};

function fallbackCode(item: ValidationItem): string {
  const p = item.params ?? {};
  switch (item.keyword) {
    case 'invalid_type':
      return /received undefined/.test(item.message ?? '') ? 'required' : 'invalid_type';
    case 'too_big':
      return p.origin === 'number' || p.origin === 'int' ? 'max_value' : 'max_length';
    case 'too_small':
      return p.origin === 'number' || p.origin === 'int' ? 'min_value' : 'min_length';
    default:
      return 'invalid';
  }
}

/** Turns zod issues (as fastify-type-provider-zod reports them) into the API's `errors[]`. */
export function toFieldErrors(items: ValidationItem[], context: string | undefined): FieldError[] {
  const prefix = context && context !== 'body' ? [context] : [];
  const out: FieldError[] = [];
  for (const item of items) {
    const segments = [...prefix, ...item.instancePath.split('/').filter(Boolean)];
    if (item.keyword === 'unrecognized_keys') {
      for (const key of (item.params?.keys as string[] | undefined) ?? []) {
        out.push({ path: [...segments, key].join('.'), code: 'unknown_field', message: FIELD_MESSAGES.unknown_field ?? '' });
      }
      continue;
    }
    const code = item.message && item.message in FIELD_MESSAGES ? item.message : fallbackCode(item);
    const params: Record<string, number> = {};
    if (typeof item.params?.maximum === 'number') params.max = item.params.maximum;
    if (typeof item.params?.minimum === 'number') params.min = item.params.minimum;
    out.push({
      path: segments.join('.') || '(root)',
      code,
      message: boundMessage(code, params) ?? FIELD_MESSAGES[code] ?? 'Invalid value',
      ...(Object.keys(params).length > 0 ? { params } : {}),
    });
  }
  return out;
}

function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: HttpProblem): FastifyReply {
  return reply
    .code(problem.status)
    .type('application/problem+json')
    .send({
      type: 'about:blank',
      title: titleFor(problem.status),
      status: problem.status,
      ...(problem.detail ? { detail: problem.detail } : {}),
      code: problem.code,
      request_id: String(request.id),
      ...(problem.errors ? { errors: problem.errors } : {}),
    });
}

export function toProblem(error: FastifyError | HttpProblem | Error): HttpProblem | undefined {
  if (error instanceof HttpProblem) return error;
  const err = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const errors = toFieldErrors(err.validation as unknown as ValidationItem[], err.validationContext);
    return new HttpProblem(400, 'validation.failed', 'The request has invalid fields.', errors);
  }
  const status = err.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = STATUS_CODES[status] ?? 'request.malformed';
    // Fastify's own messages (bad JSON, wrong content type) carry no secrets and help callers.
    return new HttpProblem(status, code, err.message);
  }
  return undefined;
}

/**
 * Drizzle's query errors carry the bound parameters (password hashes, personal data) in their
 * message, stack and `params`: log the SQL text and the database's own error, never the values.
 */
export function loggableError(error: Error): Error {
  const e = error as Error & { query?: unknown; params?: unknown };
  if (typeof e.query !== 'string' || !Array.isArray(e.params)) return error;
  const safe = new Error(`Failed query: ${e.query}`, { cause: e.cause });
  safe.name = error.name;
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  safe.stack = [`${safe.name}: ${safe.message}`, ...frames].join('\n');
  return safe;
}

/** Retry-After of a 503 for an unreachable database. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblem(error);
    if (problem) return sendProblem(reply, request, problem);
    if (isDatabaseUnavailable(error)) {
      // An outage or an exhausted pool, not a fault of the request: 503 so that clients and load
      // balancers retry later (docs/operations.md#crash-safety).
      request.log.warn({ err: loggableError(error) }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendProblem(
        reply,
        request,
        new HttpProblem(503, 'service.unavailable', 'The database cannot be reached right now. Try again in a few seconds.'),
      );
    }
    request.log.error({ err: loggableError(error) }, 'unhandled error');
    return sendProblem(reply, request, new HttpProblem(500, 'internal', 'Error has occurred.'));
  });
});

/** Fastify's `frameworkErrors`: errors raised by the router before any route runs. */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  applySecurityHeaders(request.raw, reply.raw);
  sendProblem(reply, request, toProblem(error) ?? new HttpProblem(400, 'request.malformed', 'The request URL is not valid.'));
}

export { sendProblem };
