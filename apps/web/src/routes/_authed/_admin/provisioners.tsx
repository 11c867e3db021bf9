import { createFileRoute } from '@tanstack/react-router';
import { ProvisionersPage } from '@/features/provisioners/ProvisionersPage';
import { provisionersQueryOptions } from '@/features/provisioners/provisioners.queries';

export const Route = createFileRoute('/_authed/_admin/provisioners')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(provisionersQueryOptions);
  },
  component: ProvisionersPage,
});
