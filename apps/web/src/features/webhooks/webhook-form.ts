import {
  CreateWebhookBodySchema,
  EVENT_CATALOGUE,
  type CreateWebhookBody,
  type EventType,
  UpdateWebhookBodySchema,
  type UpdateWebhookBody,
  type Webhook,
  WEBHOOK_TRIGGERS,
} from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';
import { type FieldIssues, issuesFromZod } from '@/lib/field-errors';

/** The add/edit form. `token` is write-only: on edit it starts empty, and empty keeps the stored one. */
export type WebhookFormValues = {
  url: string;
  description: string;
  token: string;
  triggers: EventType[];
  enabled: boolean;
};

export const EMPTY_WEBHOOK: WebhookFormValues = { url: '', description: '', token: '', triggers: [], enabled: true };

export const webhookFormValues = (webhook: Webhook | undefined): WebhookFormValues =>
  webhook
    ? { url: webhook.url, description: webhook.description, token: '', triggers: [...webhook.triggers], enabled: webhook.enabled }
    : EMPTY_WEBHOOK;

/** The schema the API validates with: on create the token is required, on edit it may be left out. */
export const webhookSchema = (isNew: boolean) => (isNew ? CreateWebhookBodySchema : UpdateWebhookBodySchema);

/** The request body of the form: an empty token on edit is left out (keep the stored one). */
export function webhookBody(values: WebhookFormValues, isNew: boolean): Record<string, unknown> {
  const { token, ...rest } = values;
  const triggers = WEBHOOK_TRIGGERS.filter((t) => values.triggers.includes(t));
  return isNew || token !== '' ? { ...rest, triggers, token } : { ...rest, triggers };
}

export type WebhookValidation =
  | { body: CreateWebhookBody | UpdateWebhookBody; errors?: undefined }
  | { body?: undefined; errors: FieldIssues };

/** Spec §5: URL required and valid, at least one trigger, token required (on create). */
export function validateWebhookForm(values: WebhookFormValues, isNew: boolean): WebhookValidation {
  const result = webhookSchema(isNew).safeParse(webhookBody(values, isNew));
  return result.success ? { body: result.data } : { errors: issuesFromZod(result.error) };
}

/** Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function generateWebhookToken(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** The label of a trigger (`webhooks.trigger.<type>`); the unit test checks every catalogue trigger has one. */
export const triggerLabelKey = (type: EventType): MessageKey => `webhooks.trigger.${type}` as MessageKey;

/** A trigger of the catalogue that no module of this release emits yet (hardware key provisioning). */
export const isLaterTrigger = (type: EventType): boolean => (EVENT_CATALOGUE[type] as { later?: boolean }).later === true;
