import { createFileRoute } from '@tanstack/react-router';
import { RuleCreatePage } from '@/features/acl/RuleCreatePage';
import { aclAliasesQueryOptions } from '@/features/acl/acl.queries';
import { groupNamesQueryOptions, locationsQueryOptions } from '@/features/locations/locations.queries';

export const Route = createFileRoute('/_authed/_admin/acl/rules/new')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(aclAliasesQueryOptions);
    void context.queryClient.prefetchQuery(locationsQueryOptions);
    void context.queryClient.prefetchQuery(groupNamesQueryOptions);
  },
  component: RuleCreatePage,
});
