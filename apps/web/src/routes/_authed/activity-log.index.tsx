import { createFileRoute } from '@tanstack/react-router';
import { ActivityLogPage } from '@/features/activity-log/ActivityLogPage';
import { activityListQueryOptions } from '@/features/activity-log/activity-log.queries';
import { parseActivitySearch, toActivityListParams } from '@/features/activity-log/activity-search';

export const Route = createFileRoute('/_authed/activity-log/')({
  validateSearch: parseActivitySearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(activityListQueryOptions(toActivityListParams(deps, Date.now())));
  },
  component: ActivityLogPage,
});
