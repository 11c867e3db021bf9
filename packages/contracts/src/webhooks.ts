import { z } from 'zod';
import { type EventType, WEBHOOK_TRIGGERS } from './events.js';
import { LIMITS } from './validation.js';

/**
 * Outgoing URLs (webhooks, activity-log stream destinations): http(s) only, no credentials in the
 * URL, at most LIMITS.urlMax characters. Whether the host may be reached (the SSRF guard, with the
 * admin's allow-list) is checked by the API on save and again on every send.
 */
export const outgoingUrlSchema = z
  .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(LIMITS.urlMax, { error: 'max_length', abort: true })
  .refine(
    (v) => {
      if (!/^https?:\/\//i.test(v)) return false;
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: 'url.invalid', abort: true },
  )
  .refine(
    (v) => {
      const u = new URL(v);
      return u.username === '' && u.password === '';
    },
    { error: 'url.credentials' },
  );

const triggerSchema = z.enum(WEBHOOK_TRIGGERS as [EventType, ...EventType[]], { error: 'invalid' });

/** A webhook (spec §3). The secret token is write-only: responses say whether one is set. */
export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    description: z.string(),
    triggers: z.array(triggerSchema),
    enabled: z.boolean(),
    created_at: z.string(),
    last_attempt_at: z.string().optional(),
    last_status: z.enum(['delivered', 'failed', 'retrying']).optional(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof WebhookSchema>;

export const WEBHOOK_TOKEN_MAX = 256;
const tokenSchema = z
  .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
  .min(1, { error: 'required', abort: true })
  .max(WEBHOOK_TOKEN_MAX, { error: 'max_length' });

const webhookFields = {
  url: outgoingUrlSchema,
  description: z
    .string({ error: 'invalid_type' })
    .trim()
    .max(LIMITS.nameMax * 2, { error: 'max_length' })
    .default(''),
  // Spec §5: at least one trigger.
  triggers: z.array(triggerSchema, { error: 'required' }).min(1, { error: 'webhook.trigger_required' }),
  enabled: z.boolean({ error: 'invalid_type' }).default(true),
};

export const CreateWebhookBodySchema = z.strictObject({ ...webhookFields, token: tokenSchema });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBodySchema>;
/** `token` absent keeps the current one. */
export const UpdateWebhookBodySchema = z.strictObject({ ...webhookFields, token: tokenSchema.optional() });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBodySchema>;
export const WebhookStateBodySchema = z.strictObject({ enabled: z.boolean({ error: 'required' }) });
export type WebhookStateBody = z.infer<typeof WebhookStateBodySchema>;
export const WebhookIdParamsSchema = z.strictObject({ id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });
export const WebhookDeliveryParamsSchema = z.strictObject({
  id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647),
  deliveryId: z.coerce.number({ error: 'number' }).int().min(1).max(Number.MAX_SAFE_INTEGER),
});

/** One attempt to deliver one event to one webhook (the delivery log keeps the last 100). */
export const WebhookAttemptSchema = z
  .object({
    id: z.number().int(),
    delivery_id: z.number().int(),
    event_id: z.number().int(),
    event_type: z.string(),
    attempt: z.number().int(),
    attempted_at: z.string(),
    duration_ms: z.number().int(),
    status_code: z.number().int().optional(),
    error: z.string().optional(),
    response_excerpt: z.string().optional(),
    outcome: z.enum(['delivered', 'retrying', 'failed']),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;
export const WebhookAttemptListSchema = z.array(WebhookAttemptSchema).meta({ id: 'WebhookAttemptList' });

/** The answer to "send test event" and "redeliver": the delivery now queued (it shows in the log once attempted). */
export const WebhookDeliveryQueuedSchema = z.object({ delivery_id: z.number().int() }).meta({ id: 'WebhookDeliveryQueued' });
export type WebhookDeliveryQueued = z.infer<typeof WebhookDeliveryQueuedSchema>;
export const WebhookListSchema = z.array(WebhookSchema).meta({ id: 'WebhookList' });

export const ACTIVITY_STREAM_KINDS = ['vector_http', 'logstash_http'] as const;
export type ActivityStreamKind = (typeof ACTIVITY_STREAM_KINDS)[number];

/** An activity-log stream destination (spec §3). The password is write-only. */
export const ActivityLogStreamSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(ACTIVITY_STREAM_KINDS),
    name: z.string(),
    url: z.string(),
    username: z.string(),
    has_password: z.boolean(),
    certificate: z.string(),
    state: z.object({
      last_success_at: z.string().optional(),
      last_error_at: z.string().optional(),
      last_error: z.string().optional(),
      lag: z.number().int(),
    }),
  })
  .meta({ id: 'ActivityLogStream' });
export type ActivityLogStream = z.infer<typeof ActivityLogStreamSchema>;

const streamFields = {
  kind: z.enum(ACTIVITY_STREAM_KINDS, { error: (i) => (i.input === undefined ? 'required' : 'invalid') }),
  name: z
    .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
    .trim()
    .min(1, { error: 'required' })
    .max(LIMITS.nameMax, { error: 'max_length' }),
  url: outgoingUrlSchema,
  username: z.string({ error: 'invalid_type' }).max(LIMITS.nameMax, { error: 'max_length' }).default(''),
  certificate: z
    .string({ error: 'invalid_type' })
    .max(64 * 1024, { error: 'max_length' })
    .refine((v) => v.trim() === '' || v.includes('-----BEGIN CERTIFICATE-----'), { error: 'certificate.pem' })
    .default(''),
};
export const CreateActivityLogStreamBodySchema = z.strictObject({
  ...streamFields,
  password: z.string({ error: 'invalid_type' }).max(1024, { error: 'max_length' }).default(''),
});
export type CreateActivityLogStreamBody = z.infer<typeof CreateActivityLogStreamBodySchema>;
/** `password` absent keeps the current one; '' clears it. */
export const UpdateActivityLogStreamBodySchema = z.strictObject({
  ...streamFields,
  password: z.string({ error: 'invalid_type' }).max(1024, { error: 'max_length' }).optional(),
});
export type UpdateActivityLogStreamBody = z.infer<typeof UpdateActivityLogStreamBodySchema>;
export const ActivityLogStreamIdParamsSchema = z.strictObject({ id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });
export const ActivityLogStreamListSchema = z.array(ActivityLogStreamSchema).meta({ id: 'ActivityLogStreamList' });
