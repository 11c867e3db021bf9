import type { WebhookAttempt } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { WebhookAttemptsTable } from './WebhookAttemptsTable';
import { useRedeliver, useSendTestEvent } from './webhooks.mutations';
import { webhookAttemptsQueryOptions, webhookQueryOptions } from './webhooks.queries';
import '@/features/users/users.css';
import './webhooks.css';

const route = getRouteApi('/_authed/_admin/webhooks/$id');

/** One webhook's delivery log: the last 100 attempts, refreshed while open; send a test event or redeliver. */
export function WebhookDeliveriesPage() {
  const { t } = useTranslation();
  const id = Number(route.useParams().id);
  if (!Number.isInteger(id) || id < 1) return <StateMessage kind="empty" title={t('webhooks.notFound')} />;
  return <WebhookDeliveries id={id} />;
}

function WebhookDeliveries({ id }: { id: number }) {
  const { t } = useTranslation();
  const webhook = useQuery(webhookQueryOptions(id));
  const attempts = useQuery(webhookAttemptsQueryOptions(id));
  const test = useSendTestEvent();
  const redeliver = useRedeliver();

  const onQueued = (key: 'webhooks.toast.testQueued' | 'webhooks.toast.redeliveryQueued') => () =>
    pushToast({ id: `webhook-queued-${id}`, kind: 'success', message: t(key) });
  const onError = (error: unknown) => pushToast({ id: `webhook-action-error-${id}`, kind: 'error', message: problemMessage(t, error) });
  const onRedeliver = (a: WebhookAttempt) =>
    redeliver.mutate({ id, deliveryId: a.delivery_id }, { onSuccess: onQueued('webhooks.toast.redeliveryQueued'), onError });

  if (webhook.isError && hasCode(webhook.error, 'webhook.not_found', 'request.not_found'))
    return <StateMessage kind="empty" title={t('webhooks.notFound')} />;
  return (
    <section aria-labelledby="webhook-deliveries-title">
      <header className="page-header">
        <div>
          <Link to="/webhooks" className="btn btn--link">
            ← {t('webhooks.back')}
          </Link>
          <h1 id="webhook-deliveries-title" className="page-header__title">
            {t('webhooks.deliveries')}
          </h1>
          {webhook.data ? <p className="mono muted webhook-deliveries__url">{webhook.data.url}</p> : null}
        </div>
        <div className="page-header__actions">
          <Button
            variant="primary"
            isLoading={test.isPending}
            onClick={() => test.mutate(id, { onSuccess: onQueued('webhooks.toast.testQueued'), onError })}
          >
            {t('webhooks.sendTest')}
          </Button>
        </div>
      </header>
      <div className="card">
        <p className="card__body field__hint webhook-deliveries__hint">{t('webhooks.deliveriesHint')}</p>
        {attempts.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : attempts.isError ? (
          <StateMessage kind="error" title={t('webhooks.deliveriesLoadError')} onRetry={() => void attempts.refetch()} />
        ) : attempts.data.length === 0 ? (
          <StateMessage kind="empty" title={t('webhooks.noDeliveries')} hint={t('webhooks.noDeliveriesHint')} />
        ) : (
          <WebhookAttemptsTable
            attempts={attempts.data}
            onRedeliver={onRedeliver}
            pendingDeliveryId={redeliver.isPending ? redeliver.variables?.deliveryId : undefined}
          />
        )}
      </div>
    </section>
  );
}
