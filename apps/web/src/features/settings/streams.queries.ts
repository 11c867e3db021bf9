import { unwrap } from '@palisade/api-client';
import type { ActivityLogStream } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const streamKeys = {
  all: ['activity-log-streams'] as const,
};

/** While the tab is open the destinations' state (last success, last error, lag) follows the delivery job. */
export const STREAMS_REFRESH_MS = 5_000;

export const streamsQueryOptions = queryOptions({
  queryKey: streamKeys.all,
  queryFn: async ({ signal }): Promise<ActivityLogStream[]> => unwrap(api.GET('/api/v1/activity_log_stream', { signal })),
  refetchInterval: STREAMS_REFRESH_MS,
});
