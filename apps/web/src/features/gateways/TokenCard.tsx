import type { GatewayToken } from '@palisade/contracts';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';
import { useRotateGatewayToken } from './gateways.mutations';
import { grpcUrlNotice } from './grpc-url-notice';

/**
 * The location's gateway token and gRPC URL, each with copy, and a warning when the URL is one
 * remote gateways cannot use; rotating asks first (old gateways are cut off).
 */
export function TokenCard({ locationId, token }: { locationId: number; token: GatewayToken }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const rotate = useRotateGatewayToken();
  const [isConfirming, setIsConfirming] = useState(false);
  const notice = grpcUrlNotice(token);
  const confirmRotate = () =>
    rotate.mutate(locationId, {
      onSuccess: () => {
        setIsConfirming(false);
        pushToast({ id: `gateway-token-${locationId}`, kind: 'success', message: t('gateways.token.rotated') });
      },
      onError: () => {
        setIsConfirming(false);
        pushToast({ id: `gateway-token-${locationId}`, kind: 'error', message: t('error.token.generation_failed') });
      },
    });
  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('gateways.token.title')}</h2>
        <Button size="sm" variant="ghost" onClick={() => setIsConfirming(true)}>
          {t('gateways.token.rotate')}
        </Button>
      </div>
      <dl className="card__body token-list">
        <div className="token-list__row">
          <dt>{t('gateways.token.label')}</dt>
          <dd>
            <code className="token-list__value" data-testid="gateway-token">
              {token.token}
            </code>
            <Button size="sm" onClick={() => void copy(token.token)}>
              {t('gateways.token.copy')}
            </Button>
          </dd>
        </div>
        <div className="token-list__row">
          <dt>{t('gateways.grpcUrl')}</dt>
          <dd>
            <code className="token-list__value">{token.grpc_url}</code>
            <Button size="sm" onClick={() => void copy(token.grpc_url)}>
              {t('gateways.grpcUrl.copy')}
            </Button>
          </dd>
        </div>
      </dl>
      {notice ? (
        <div className="card__body token-list__notice">
          <p className={`banner banner--${notice.kind}`} role={notice.kind === 'warning' ? 'alert' : 'note'} data-testid="grpc-url-notice">
            {notice.messages.map((key) => t(key)).join(' ')}
          </p>
        </div>
      ) : null}
      <p className="card__body field__hint token-list__hint">{t('gateways.token.hint')}</p>
      <ConfirmDialog
        title={t('gateways.token.rotateTitle')}
        isOpen={isConfirming}
        onCancel={() => setIsConfirming(false)}
        onConfirm={confirmRotate}
        confirmLabel={t('gateways.token.rotate')}
        isDanger
        isPending={rotate.isPending}
      >
        <p>{t('gateways.token.rotateMessage')}</p>
      </ConfirmDialog>
    </div>
  );
}
