import { createFileRoute, redirect } from '@tanstack/react-router';
import { useAuthStore } from '@/features/auth/auth-store';
import { UserProfilePage } from '@/features/users/UserProfilePage';
import { parseProfileSearch } from '@/features/users/users-search';
import { userQueryOptions } from '@/features/users/users.queries';

export const Route = createFileRoute('/_authed/users/$username')({
  validateSearch: parseProfileSearch,
  beforeLoad: ({ params }) => {
    const user = useAuthStore.getState().user;
    // Only admins may open someone else's profile; everyone else lands on their own.
    if (user && !user.is_admin && params.username !== user.username) {
      throw redirect({ to: '/users/$username', params: { username: user.username } });
    }
  },
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(userQueryOptions(params.username));
  },
  component: UserProfilePage,
});
