import { createFileRoute } from '@tanstack/react-router';
import { WebhooksPage } from '@/features/webhooks/WebhooksPage';
import { webhooksQueryOptions } from '@/features/webhooks/webhooks.queries';

export const Route = createFileRoute('/_authed/_admin/webhooks/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(webhooksQueryOptions);
  },
  component: WebhooksPage,
});
