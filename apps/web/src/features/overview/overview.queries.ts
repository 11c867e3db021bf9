import { unwrap } from '@palisade/api-client';
import type { NetworkStats, NetworkUsersStats } from '@palisade/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { fromForPeriod } from './period';

/** Keys carry the period, not `from`: `from` is computed at fetch time so a refetch slides the window. */
export const statsKeys = {
  all: ['stats'] as const,
  summary: (period: number) => [...statsKeys.all, 'summary', period] as const,
  location: (id: number, period: number) => [...statsKeys.all, 'location', id, period] as const,
  users: (id: number, period: number) => [...statsKeys.all, 'users', id, period] as const,
};

/** Overview figures follow live traffic; a period change keeps the previous figures on screen until the new ones arrive. */
const live = { refetchInterval: 30_000, placeholderData: keepPreviousData } as const;

export const networkStatsQueryOptions = (period: number) =>
  queryOptions({
    queryKey: statsKeys.summary(period),
    queryFn: async ({ signal }): Promise<NetworkStats> =>
      unwrap(api.GET('/api/v1/network/stats', { params: { query: { from: fromForPeriod(period) } }, signal })),
    ...live,
  });

export const locationStatsQueryOptions = (id: number, period: number) =>
  queryOptions({
    queryKey: statsKeys.location(id, period),
    queryFn: async ({ signal }): Promise<NetworkStats> =>
      unwrap(api.GET('/api/v1/network/{id}/stats', { params: { path: { id }, query: { from: fromForPeriod(period) } }, signal })),
    ...live,
  });

export const locationUsersStatsQueryOptions = (id: number, period: number) =>
  queryOptions({
    queryKey: statsKeys.users(id, period),
    queryFn: async ({ signal }): Promise<NetworkUsersStats> =>
      unwrap(api.GET('/api/v1/network/{id}/stats/users', { params: { path: { id }, query: { from: fromForPeriod(period) } }, signal })),
    ...live,
  });
