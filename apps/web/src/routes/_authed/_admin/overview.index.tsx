import { createFileRoute } from '@tanstack/react-router';
import { locationsQueryOptions } from '@/features/locations/locations.queries';
import { OverviewAllPage } from '@/features/overview/OverviewAllPage';
import { networkStatsQueryOptions } from '@/features/overview/overview.queries';
import { DEFAULT_PERIOD, parseOverviewSearch } from '@/features/overview/period';

export const Route = createFileRoute('/_authed/_admin/overview/')({
  validateSearch: parseOverviewSearch,
  loaderDeps: ({ search }) => ({ period: search.period ?? DEFAULT_PERIOD }),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(locationsQueryOptions);
    void context.queryClient.prefetchQuery(networkStatsQueryOptions(deps.period));
  },
  component: OverviewAllPage,
});
