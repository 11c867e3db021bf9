import { createFileRoute } from '@tanstack/react-router';
import { GroupsPage } from '@/features/groups/GroupsPage';
import { groupsQueryOptions } from '@/features/groups/groups.queries';

export const Route = createFileRoute('/_authed/_admin/groups')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(groupsQueryOptions);
  },
  component: GroupsPage,
});
