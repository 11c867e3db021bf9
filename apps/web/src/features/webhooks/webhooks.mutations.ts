import { type ApiSchemas, unwrap } from '@palisade/api-client';
import type { CreateWebhookBody, UpdateWebhookBody, Webhook, WebhookDeliveryQueued } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { webhookKeys } from './webhooks.queries';

/** The contracts type a trigger as any event type; the OpenAPI enum lists the webhook triggers (the same schema checked them). */
type ApiTrigger = ApiSchemas['Webhook']['triggers'][number];
const apiBody = <B extends { triggers: readonly string[] }>(body: B) => ({ ...body, triggers: body.triggers as ApiTrigger[] });

export const useCreateWebhook = () =>
  useMutation({
    mutationFn: async (body: CreateWebhookBody): Promise<Webhook> => unwrap(api.POST('/api/v1/webhook', { body: apiBody(body) })),
    meta: { invalidate: [webhookKeys.all] },
  });

export const useUpdateWebhook = () =>
  useMutation({
    mutationFn: async ({ id, body }: { id: number; body: UpdateWebhookBody }): Promise<Webhook> =>
      unwrap(api.PUT('/api/v1/webhook/{id}', { params: { path: { id } }, body: apiBody(body) })),
    meta: { invalidate: [webhookKeys.all] },
  });

/** Enable or disable (spec §4: POST /webhook/{id}). */
export const useSetWebhookState = () =>
  useMutation({
    mutationFn: async ({ id, enabled }: { id: number; enabled: boolean }): Promise<Webhook> =>
      unwrap(api.POST('/api/v1/webhook/{id}', { params: { path: { id } }, body: { enabled } })),
    meta: { invalidate: [webhookKeys.all] },
  });

export const useDeleteWebhook = () =>
  useMutation({
    mutationFn: async (id: number) => {
      await unwrap(api.DELETE('/api/v1/webhook/{id}', { params: { path: { id } } }));
    },
    meta: { invalidate: [webhookKeys.all] },
  });

export const useSendTestEvent = () =>
  useMutation({
    mutationFn: async (id: number): Promise<WebhookDeliveryQueued> =>
      unwrap(api.POST('/api/v1/webhook/{id}/test', { params: { path: { id } } })),
    meta: { invalidate: [webhookKeys.all] },
  });

export const useRedeliver = () =>
  useMutation({
    mutationFn: async ({ id, deliveryId }: { id: number; deliveryId: number }): Promise<WebhookDeliveryQueued> =>
      unwrap(api.POST('/api/v1/webhook/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } })),
    meta: { invalidate: [webhookKeys.all] },
  });
