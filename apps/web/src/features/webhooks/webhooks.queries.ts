import { unwrap } from '@palisade/api-client';
import type { Webhook, WebhookAttempt } from '@palisade/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  detail: (id: number) => [...webhookKeys.all, 'detail', id] as const,
  attempts: (id: number) => [...webhookKeys.all, 'attempts', id] as const,
};

/** While the delivery log is open it follows new attempts (retries and redeliveries land within seconds). */
export const ATTEMPTS_REFRESH_MS = 3_000;

/** Every webhook (few: an administrator's list, not paged); search and filter happen here. */
export const webhooksQueryOptions = queryOptions({
  queryKey: webhookKeys.list(),
  queryFn: async ({ signal }): Promise<Webhook[]> => unwrap(api.GET('/api/v1/webhook', { signal })),
});

export const webhookQueryOptions = (id: number) =>
  queryOptions({
    queryKey: webhookKeys.detail(id),
    queryFn: async ({ signal }): Promise<Webhook> => unwrap(api.GET('/api/v1/webhook/{id}', { params: { path: { id } }, signal })),
    retry: false,
  });

/** The last 100 delivery attempts of a webhook, newest first. */
export const webhookAttemptsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: webhookKeys.attempts(id),
    queryFn: async ({ signal }): Promise<WebhookAttempt[]> =>
      unwrap(api.GET('/api/v1/webhook/{id}/deliveries', { params: { path: { id } }, signal })),
    refetchInterval: ATTEMPTS_REFRESH_MS,
  });
