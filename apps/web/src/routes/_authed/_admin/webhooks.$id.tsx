import { createFileRoute } from '@tanstack/react-router';
import { WebhookDeliveriesPage } from '@/features/webhooks/WebhookDeliveriesPage';
import { webhookAttemptsQueryOptions, webhookQueryOptions } from '@/features/webhooks/webhooks.queries';

export const Route = createFileRoute('/_authed/_admin/webhooks/$id')({
  loader: ({ context, params }) => {
    const id = Number(params.id);
    if (!Number.isInteger(id) || id < 1) return;
    void context.queryClient.prefetchQuery(webhookQueryOptions(id));
    void context.queryClient.prefetchQuery(webhookAttemptsQueryOptions(id));
  },
  component: WebhookDeliveriesPage,
});
