import type { DesktopActivation, User } from '@palisade/contracts';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { StateMessage } from '@/components/StateMessage';
import { QrCode } from '@/features/devices/QrCode';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';
import { useStartDesktop } from './desktop-activation.mutations';
import './enrollment.css';

/** The QR code carries both things a client needs to activate: the instance URL and the token. */
export const activationQrText = (activation: DesktopActivation): string => JSON.stringify({ url: activation.url, token: activation.token });

/**
 * Desktop activation: a one-time token (shown once) with which a client registers its own public
 * key as a device of this user and receives its configs (docs/cli.md, the client API). Issuing
 * one replaces the user's earlier unused one.
 */
export function DesktopActivationDialog({ user, onClose }: { user: Pick<User, 'username'>; onClose: () => void }) {
  const { t, language } = useTranslation();
  const copy = useCopy();
  const start = useStartDesktop();
  const requested = useRef(false);
  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    start.mutate({ username: user.username });
  }, [start, user.username]);
  const activation = start.data;
  return (
    <Dialog
      title={t('desktop.title', { username: user.username })}
      isOpen
      onClose={onClose}
      confirmClose={activation ? t('secret.tokenCloseWarning') : undefined}
      footer={<Button onClick={onClose}>{activation ? t('secret.savedClose') : t('common.close')}</Button>}
    >
      {start.isError ? (
        <FormErrorBanner error={start.error} />
      ) : !activation ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : (
        <div className="form-grid">
          <p className="banner banner--warning">{t('desktop.once', { date: formatDateTime(language, activation.expires_at) })}</p>
          <p>{t('desktop.purpose')}</p>
          <div className="enrollment-link">
            <QrCode text={activationQrText(activation)} label={t('desktop.qr')} size={180} />
            <div className="form-grid">
              <div className="field">
                <span className="field__label">{t('desktop.url')}</span>
                <pre className="config-text">{activation.url}</pre>
                <div className="config-panel__actions">
                  <Button onClick={() => void copy(activation.url)}>{t('enrollment.link.copyUrl')}</Button>
                </div>
              </div>
              <div className="field">
                <span className="field__label">{t('enrollment.link.token')}</span>
                <pre className="config-text">{activation.token}</pre>
                <div className="config-panel__actions">
                  <Button variant="primary" onClick={() => void copy(activation.token)}>
                    {t('enrollment.link.copyToken')}
                  </Button>
                </div>
              </div>
            </div>
          </div>
        </div>
      )}
    </Dialog>
  );
}
