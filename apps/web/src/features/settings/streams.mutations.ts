import { unwrap } from '@palisade/api-client';
import type { ActivityLogStream, CreateActivityLogStreamBody, UpdateActivityLogStreamBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { streamKeys } from './streams.queries';

export const useCreateStream = () =>
  useMutation({
    mutationFn: async (body: CreateActivityLogStreamBody): Promise<ActivityLogStream> =>
      unwrap(api.POST('/api/v1/activity_log_stream', { body })),
    meta: { invalidate: [streamKeys.all] },
  });

export const useUpdateStream = () =>
  useMutation({
    mutationFn: async ({ id, body }: { id: number; body: UpdateActivityLogStreamBody }): Promise<ActivityLogStream> =>
      unwrap(api.PUT('/api/v1/activity_log_stream/{id}', { params: { path: { id } }, body })),
    meta: { invalidate: [streamKeys.all] },
  });

export const useDeleteStream = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/activity_log_stream/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [streamKeys.all] },
  });
