import { unwrap } from '@palisade/api-client';
import type { Worker, WorkerJob } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const provisionerKeys = {
  all: ['provisioners'] as const,
  list: () => [...provisionerKeys.all, 'list'] as const,
  token: () => [...provisionerKeys.all, 'token'] as const,
  job: (id: number) => [...provisionerKeys.all, 'job', id] as const,
};

/** Availability follows the stations' polls (heartbeat): the overview refreshes it while open. */
export const PROVISIONERS_REFRESH_MS = 10_000;

/** How often an open provisioning dialog asks for its job's state. */
export const JOB_POLL_MS = 1_500;

export const provisionersQueryOptions = queryOptions({
  queryKey: provisionerKeys.list(),
  queryFn: async ({ signal }): Promise<Worker[]> => unwrap(api.GET('/api/v1/worker', { signal })),
  refetchInterval: PROVISIONERS_REFRESH_MS,
});

/** The registration token stations start with (docs/provisioning.md). */
export const workerTokenQueryOptions = queryOptions({
  queryKey: provisionerKeys.token(),
  queryFn: async ({ signal }): Promise<string> => (await unwrap(api.GET('/api/v1/worker/token', { signal }))).token,
  staleTime: Number.POSITIVE_INFINITY,
});

/** A job's state, asked again every `pollMs` until it is final (error or success). */
export const workerJobQueryOptions = (id: number, pollMs: number = JOB_POLL_MS) =>
  queryOptions({
    queryKey: provisionerKeys.job(id),
    queryFn: async ({ signal }): Promise<WorkerJob> => unwrap(api.GET('/api/v1/worker/{id}', { params: { path: { id } }, signal })),
    refetchInterval: (query) =>
      query.state.status === 'error' || (query.state.data && query.state.data.state !== 'in_progress') ? false : pollMs,
    retry: false,
    refetchIntervalInBackground: true,
    gcTime: 0,
  });
