import { createFileRoute } from '@tanstack/react-router';
import { AclRulesPage } from '@/features/acl/AclRulesPage';
import { aclAliasesQueryOptions, aclRulesQueryOptions } from '@/features/acl/acl.queries';
import { locationsQueryOptions } from '@/features/locations/locations.queries';

export const Route = createFileRoute('/_authed/_admin/acl/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(aclRulesQueryOptions);
    void context.queryClient.prefetchQuery(aclAliasesQueryOptions);
    void context.queryClient.prefetchQuery(locationsQueryOptions);
  },
  component: AclRulesPage,
});
