import type { Webhook, WebhookAttempt } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';

type Outcome = NonNullable<Webhook['last_status']> | WebhookAttempt['outcome'];

const TONE = { delivered: 'success', retrying: 'warning', failed: 'error' } as const;
const LABEL: Record<Outcome, MessageKey> = {
  delivered: 'webhooks.outcome.delivered',
  retrying: 'webhooks.outcome.retrying',
  failed: 'webhooks.outcome.failed',
};

/** The outcome of a delivery attempt (or of the last one of a webhook) as a badge. */
export function WebhookOutcome({ outcome }: { outcome: Outcome | undefined }) {
  const { t } = useTranslation();
  if (!outcome) return <span className="muted">{t('webhooks.noDeliveries')}</span>;
  return <Badge tone={TONE[outcome]}>{t(LABEL[outcome])}</Badge>;
}
