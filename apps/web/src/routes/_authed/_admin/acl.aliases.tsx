import { createFileRoute } from '@tanstack/react-router';
import { AclAliasesPage } from '@/features/acl/AclAliasesPage';
import { aclAliasesQueryOptions } from '@/features/acl/acl.queries';

export const Route = createFileRoute('/_authed/_admin/acl/aliases')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(aclAliasesQueryOptions);
  },
  component: AclAliasesPage,
});
