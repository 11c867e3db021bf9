import {
  CreateWebhookBodySchema,
  UpdateWebhookBodySchema,
  WebhookAttemptListSchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliveryQueuedSchema,
  WebhookIdParamsSchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookStateBodySchema,
} from '@palisade/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { problems } from '#src/lib/route-schemas.js';
import { actorOf } from '#src/plugins/session.js';
import { WebhooksService } from './webhooks.service.js';

export interface WebhooksRoutesOptions {
  db: Db;
  /** Seals webhook tokens at rest (the instance key; the delivery job opens them with the same). */
  secrets: SecretBox;
}

export const webhooksRoutes: FastifyPluginAsyncZod<WebhooksRoutesOptions> = async (app, options) => {
  const tags = ['webhooks'];
  const webhooks = new WebhooksService(options.db, options.secrets);

  app.get(
    '/api/v1/webhook',
    { schema: { tags, summary: 'List webhooks', response: { 200: WebhookListSchema, ...problems(401, 403) } } },
    () => webhooks.list(),
  );

  app.post(
    '/api/v1/webhook',
    {
      schema: {
        tags,
        summary: 'Create a webhook',
        body: CreateWebhookBodySchema,
        response: { 201: WebhookSchema, ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(actorOf(request), request.body)),
  );

  app.get(
    '/api/v1/webhook/:id',
    { schema: { tags, summary: 'A webhook', params: WebhookIdParamsSchema, response: { 200: WebhookSchema, ...problems(401, 403, 404) } } },
    (request) => webhooks.get(request.params.id),
  );

  app.post(
    '/api/v1/webhook/:id',
    {
      schema: {
        tags,
        summary: 'Enable or disable a webhook (disabling stops its pending deliveries)',
        params: WebhookIdParamsSchema,
        body: WebhookStateBodySchema,
        response: { 200: WebhookSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => webhooks.setEnabled(actorOf(request), request.params.id, request.body.enabled),
  );

  app.put(
    '/api/v1/webhook/:id',
    {
      schema: {
        tags,
        summary: 'Change a webhook (an absent token keeps the current one)',
        params: WebhookIdParamsSchema,
        body: UpdateWebhookBodySchema,
        response: { 200: WebhookSchema, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => webhooks.update(actorOf(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/webhook/:id',
    {
      schema: { tags, summary: 'Delete a webhook', params: WebhookIdParamsSchema, response: { 204: z.null(), ...problems(401, 403, 404) } },
    },
    async (request, reply) => {
      await webhooks.delete(actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/webhook/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'The delivery log: the last 100 attempts, newest first',
        params: WebhookIdParamsSchema,
        response: { 200: WebhookAttemptListSchema, ...problems(401, 403, 404) },
      },
    },
    (request) => webhooks.deliveries(request.params.id),
  );

  app.post(
    '/api/v1/webhook/:id/test',
    {
      schema: {
        tags,
        summary: 'Send a test event (webhook.test_sent) to this webhook',
        params: WebhookIdParamsSchema,
        response: { 202: WebhookDeliveryQueuedSchema, ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.sendTest(actorOf(request), request.params.id)),
  );

  app.post(
    '/api/v1/webhook/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        summary: 'Send a delivery again now (same webhook-id, attempts from 1)',
        params: WebhookDeliveryParamsSchema,
        response: { 202: WebhookDeliveryQueuedSchema, ...problems(401, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.redeliver(actorOf(request), request.params.id, request.params.deliveryId)),
  );
};
