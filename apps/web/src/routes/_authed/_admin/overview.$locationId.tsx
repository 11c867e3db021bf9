import { createFileRoute } from '@tanstack/react-router';
import { locationsQueryOptions } from '@/features/locations/locations.queries';
import { OverviewLocationPage } from '@/features/overview/OverviewLocationPage';
import { locationStatsQueryOptions, locationUsersStatsQueryOptions } from '@/features/overview/overview.queries';
import { DEFAULT_PERIOD, parseOverviewSearch } from '@/features/overview/period';

export const Route = createFileRoute('/_authed/_admin/overview/$locationId')({
  validateSearch: parseOverviewSearch,
  loaderDeps: ({ search }) => ({ period: search.period ?? DEFAULT_PERIOD }),
  loader: ({ context, params, deps }) => {
    const id = Number(params.locationId);
    void context.queryClient.prefetchQuery(locationsQueryOptions);
    if (Number.isInteger(id) && id > 0) {
      void context.queryClient.prefetchQuery(locationStatsQueryOptions(id, deps.period));
      void context.queryClient.prefetchQuery(locationUsersStatsQueryOptions(id, deps.period));
    }
  },
  component: OverviewLocationPage,
});
