import type { Webhook } from '@palisade/contracts';

export const WEBHOOK_STATE_FILTERS = ['all', 'enabled', 'disabled'] as const;
export type WebhookStateFilter = (typeof WEBHOOK_STATE_FILTERS)[number];

/** Spec §2: search by URL, filter all / enabled / disabled. */
export function filterWebhooks(webhooks: readonly Webhook[], search: string, state: WebhookStateFilter): Webhook[] {
  const needle = search.trim().toLowerCase();
  return webhooks.filter(
    (w) => (state === 'all' || w.enabled === (state === 'enabled')) && (needle === '' || w.url.toLowerCase().includes(needle)),
  );
}
