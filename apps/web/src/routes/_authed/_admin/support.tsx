import { createFileRoute } from '@tanstack/react-router';
import { SupportPage } from '@/features/support/SupportPage';
import { supportConfigurationQueryOptions } from '@/features/support/support.queries';

export const Route = createFileRoute('/_authed/_admin/support')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(supportConfigurationQueryOptions);
  },
  component: SupportPage,
});
