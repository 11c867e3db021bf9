import { EVENT_TYPES, type EventType, type WebhookAttempt } from '@palisade/contracts';
import { Button } from '@/components/Button';
import { eventLabelKey } from '@/features/activity-log/event-labels';
import type { Language } from '@/i18n/languages';
import { useTranslation } from '@/i18n/use-translation';
import { WebhookOutcome } from './WebhookStatus';

interface WebhookAttemptsTableProps {
  attempts: readonly WebhookAttempt[];
  onRedeliver: (attempt: WebhookAttempt) => void;
  /** The delivery whose redelivery is being queued. */
  pendingDeliveryId: number | undefined;
}

const formatTime = (language: Language, iso: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));

/** Event types of the catalogue get their label; anything else (an older or unknown type) shows as sent. */
const isKnownEvent = (type: string): type is EventType => (EVENT_TYPES as readonly string[]).includes(type);

/** The delivery log: one row per attempt (time, event, status code, duration, outcome, error, response). */
export function WebhookAttemptsTable({ attempts, onRedeliver, pendingDeliveryId }: WebhookAttemptsTableProps) {
  const { t, language } = useTranslation();
  return (
    <div className="table-wrap">
      <table className="table webhook-attempts">
        <thead>
          <tr>
            <th scope="col">{t('webhooks.attempt.time')}</th>
            <th scope="col">{t('webhooks.attempt.event')}</th>
            <th scope="col">{t('webhooks.attempt.status')}</th>
            <th scope="col" className="col-md">
              {t('webhooks.attempt.duration')}
            </th>
            <th scope="col">{t('webhooks.attempt.outcome')}</th>
            <th scope="col">{t('webhooks.attempt.details')}</th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => (
            <tr key={a.id}>
              <td>
                {formatTime(language, a.attempted_at)}
                {a.attempt > 1 ? <div className="muted">{t('webhooks.attempt.number', { n: a.attempt })}</div> : null}
              </td>
              <td>{isKnownEvent(a.event_type) ? t(eventLabelKey(a.event_type)) : <span className="mono">{a.event_type}</span>}</td>
              <td className="mono">{a.status_code ?? '—'}</td>
              <td className="col-md">{t('webhooks.attempt.ms', { ms: a.duration_ms })}</td>
              <td>
                <WebhookOutcome outcome={a.outcome} />
              </td>
              <td className="webhook-attempts__details">
                {a.error ? <p className="webhook-attempts__error">{a.error}</p> : null}
                {a.response_excerpt ? (
                  <details>
                    <summary>{t('webhooks.attempt.response')}</summary>
                    <pre className="webhook-attempts__response">{a.response_excerpt}</pre>
                  </details>
                ) : null}
              </td>
              <td className="col-actions">
                <Button size="sm" onClick={() => onRedeliver(a)} isLoading={pendingDeliveryId === a.delivery_id}>
                  {t('webhooks.redeliver')}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
