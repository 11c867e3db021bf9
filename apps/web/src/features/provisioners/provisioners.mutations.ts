import { unwrap } from '@palisade/api-client';
import type { CreateWorkerJobBody } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { provisionerKeys } from './provisioners.queries';

/** Queues a provisioning job; answers its id. */
export const useCreateWorkerJob = () =>
  useMutation({
    mutationFn: async (body: CreateWorkerJobBody): Promise<number> => (await unwrap(api.POST('/api/v1/worker/job', { body }))).id,
  });

export const useDeleteProvisioner = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/worker/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [provisionerKeys.all] },
  });
