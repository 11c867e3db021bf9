import { unwrap } from '@palisade/api-client';
import type { NetworkUsersStats } from '@palisade/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { statsKeys } from '@/features/overview/overview.queries';
import { fromForPeriod } from '@/features/overview/period';
import { api } from '@/lib/api';

export const connectedUsersKeys = {
  all: (period: number) => [...statsKeys.all, 'connected-users', period] as const,
};

/** Every location's active users and network devices; like the overview, it follows live traffic. */
export const connectedUsersQueryOptions = (period: number) =>
  queryOptions({
    queryKey: connectedUsersKeys.all(period),
    queryFn: async ({ signal }): Promise<NetworkUsersStats> =>
      unwrap(api.GET('/api/v1/network/stats/users', { params: { query: { from: fromForPeriod(period) } }, signal })),
    refetchInterval: 30_000,
    placeholderData: keepPreviousData,
  });
