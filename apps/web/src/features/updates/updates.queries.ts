import type { UpdateInfo } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { useUpdatesStore } from '@/features/app/updates-store';
import { api } from '@/lib/api';

export const updatesKeys = {
  latest: ['updates'] as const,
};

/**
 * Spec §4/§6: the new-version check, fetched once an admin is signed in; null when there is no
 * newer version (204). Spec §8: a failure is only logged.
 */
export const updateQueryOptions = queryOptions({
  queryKey: updatesKeys.latest,
  queryFn: async ({ signal }): Promise<UpdateInfo | null> => {
    const { data, response } = await api.GET('/api/v1/updates', { signal });
    if (response.status === 204) {
      useUpdatesStore.getState().setUpdate(undefined);
      return null;
    }
    if (!response.ok || !data) {
      const error = new Error(`GET /api/v1/updates answered ${response.status}`);
      console.error('Failed to check for a new version', error);
      throw error;
    }
    useUpdatesStore.getState().setUpdate(data);
    return data;
  },
  retry: false,
  staleTime: Number.POSITIVE_INFINITY,
});
