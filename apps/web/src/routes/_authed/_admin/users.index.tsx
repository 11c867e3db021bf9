import { createFileRoute } from '@tanstack/react-router';
import { UsersPage } from '@/features/users/UsersPage';
import { usersListQueryOptions } from '@/features/users/users.queries';
import { parseUsersSearch, withUsersSearchDefaults } from '@/features/users/users-search';

export const Route = createFileRoute('/_authed/_admin/users/')({
  validateSearch: parseUsersSearch,
  loaderDeps: ({ search }) => withUsersSearchDefaults(search),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(usersListQueryOptions(deps));
  },
  component: UsersPage,
});
