import { createFileRoute } from '@tanstack/react-router';
import { RuleEditPage } from '@/features/acl/RuleEditPage';
import { aclAliasesQueryOptions, aclRulesQueryOptions } from '@/features/acl/acl.queries';
import { groupNamesQueryOptions, locationsQueryOptions } from '@/features/locations/locations.queries';

export const Route = createFileRoute('/_authed/_admin/acl/rules/$id')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(aclRulesQueryOptions);
    void context.queryClient.prefetchQuery(aclAliasesQueryOptions);
    void context.queryClient.prefetchQuery(locationsQueryOptions);
    void context.queryClient.prefetchQuery(groupNamesQueryOptions);
  },
  component: RuleEditPage,
});
