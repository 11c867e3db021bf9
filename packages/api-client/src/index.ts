import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type ApiSchemas = components['schemas'];

/** A problem+json answer (API.md §1), thrown by `unwrap` for every non-2xx response. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly problem: {
    code: string;
    title?: string;
    detail?: string;
    errors?: { path: string; code: string; message: string; params?: Record<string, string | number> }[];
  };

  constructor(status: number, problem: ApiError['problem']) {
    super(problem.detail ?? problem.title ?? problem.code);
    this.name = 'ApiError';
    this.status = status;
    this.code = problem.code;
    this.problem = problem;
  }
}

/** Spec §1: null and undefined values are removed from every response body. */
export function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(dropNulls) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== null && v !== undefined) out[key] = dropNulls(v);
    return out as T;
  }
  return value;
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

export function createApiClient(options: ApiClientOptions = {}) {
  const client = createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    credentials: 'same-origin',
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  return client;
}
export type ApiClient = ReturnType<typeof createApiClient>;
export type { Middleware };

/**
 * Turns an openapi-fetch result into its data or throws `ApiError`.
 * `const user = await unwrap(api.GET('/api/v1/me'))`.
 */
export async function unwrap<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<NonNullable<T>> {
  const { data, error, response } = await pending;
  if (!response.ok) {
    const problem =
      error && typeof error === 'object' && 'code' in error
        ? (error as ApiError['problem'])
        : { code: response.status === 401 ? 'auth.unauthenticated' : 'internal', title: response.statusText };
    throw new ApiError(response.status, problem);
  }
  return dropNulls(data) as NonNullable<T>;
}
