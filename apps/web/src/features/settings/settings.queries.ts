import { unwrap } from '@palisade/api-client';
import type { Settings } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const settingsKeys = {
  all: ['settings'] as const,
};

export const settingsQueryOptions = queryOptions({
  queryKey: settingsKeys.all,
  queryFn: async ({ signal }): Promise<Settings> => unwrap(api.GET('/api/v1/settings', { signal })),
});
