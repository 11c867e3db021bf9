import { unwrap } from '@palisade/api-client';
import type { ActivityLogPage } from '@palisade/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ActivityListParams } from './activity-search';

export const activityKeys = {
  all: ['activity-log'] as const,
  lists: () => [...activityKeys.all, 'list'] as const,
  list: (params: ActivityListParams) => [...activityKeys.lists(), params] as const,
};

/** Server-paged and filtered by the API: one page is fetched, whatever the size of the log. */
export const activityListQueryOptions = (params: ActivityListParams) =>
  queryOptions({
    queryKey: activityKeys.list(params),
    queryFn: async ({ signal }): Promise<ActivityLogPage> => unwrap(api.GET('/api/v1/activity_log', { params: { query: params }, signal })),
    placeholderData: keepPreviousData,
  });
