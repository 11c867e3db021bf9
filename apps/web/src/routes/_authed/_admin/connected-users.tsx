import { createFileRoute } from '@tanstack/react-router';
import { ConnectedUsersPage } from '@/features/connected-users/ConnectedUsersPage';
import { connectedUsersQueryOptions } from '@/features/connected-users/connected-users.queries';
import { DEFAULT_PERIOD, parseOverviewSearch } from '@/features/overview/period';

export const Route = createFileRoute('/_authed/_admin/connected-users')({
  validateSearch: parseOverviewSearch,
  loaderDeps: ({ search }) => ({ period: search.period ?? DEFAULT_PERIOD }),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(connectedUsersQueryOptions(deps.period));
  },
  component: ConnectedUsersPage,
});
