import { unwrap } from '@palisade/api-client';
import type { GroupInfo } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const groupKeys = {
  all: ['groups'] as const,
  info: () => [...groupKeys.all, 'info'] as const,
};

export const groupsQueryOptions = queryOptions({
  queryKey: groupKeys.info(),
  queryFn: async ({ signal }): Promise<GroupInfo[]> => unwrap(api.GET('/api/v1/group-info', { signal })),
});
