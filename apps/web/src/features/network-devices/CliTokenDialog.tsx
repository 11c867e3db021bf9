import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';
import type { CliToken } from './network-devices.mutations';

/**
 * The CLI enrollment token, shown once: closing other than with "I have saved it" asks first.
 * Nothing redeems a token yet (docs/locations.md), and the dialog says so instead of naming a
 * command that does not exist.
 */
export function CliTokenDialog({ token, onClose }: { token: CliToken; onClose: () => void }) {
  const { t, language } = useTranslation();
  const copy = useCopy();
  return (
    <Dialog
      title={t('networkDevices.tokenTitle')}
      isOpen
      onClose={onClose}
      confirmClose={t('secret.tokenCloseWarning')}
      footer={<Button onClick={onClose}>{t('secret.savedClose')}</Button>}
    >
      <div className="form-grid">
        <p className="banner banner--warning">{t('networkDevices.tokenOnce', { date: formatDateTime(language, token.expires_at) })}</p>
        <p>{t('networkDevices.tokenPurpose')}</p>
        <p className="banner banner--info" role="note">
          {t('networkDevices.tokenUnavailable')}
        </p>
        <div className="field">
          <span className="field__label">{t('networkDevices.token')}</span>
          <pre className="config-text">{token.token}</pre>
          <div className="config-panel__actions">
            <Button variant="primary" onClick={() => void copy(token.token)}>
              {t('networkDevices.copyToken')}
            </Button>
          </div>
        </div>
        <div className="field">
          <span className="field__label">{t('networkDevices.enrollmentUrl')}</span>
          <pre className="config-text">{token.enrollment_url ?? window.location.origin}</pre>
          <div className="config-panel__actions">
            <Button onClick={() => void copy(token.enrollment_url ?? window.location.origin)}>{t('networkDevices.copyUrl')}</Button>
          </div>
        </div>
      </div>
    </Dialog>
  );
}
