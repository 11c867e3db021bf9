import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';
import type { CliToken } from './network-devices.mutations';

/**
 * The CLI enrollment token, shown once: closing other than with "I have saved it" asks first.
 * The machine redeems it with `palisade enroll` (docs/cli.md), shown ready to copy.
 */
export const enrollCommand = (url: string, token: string) => `sudo palisade enroll --url ${url} --token ${token} --up`;

export function CliTokenDialog({ token, onClose }: { token: CliToken; onClose: () => void }) {
  const { t, language } = useTranslation();
  const copy = useCopy();
  const url = token.enrollment_url ?? window.location.origin;
  const command = enrollCommand(url, token.token);
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
          <pre className="config-text">{url}</pre>
          <div className="config-panel__actions">
            <Button onClick={() => void copy(url)}>{t('networkDevices.copyUrl')}</Button>
          </div>
        </div>
        <div className="field">
          <span className="field__label">{t('networkDevices.tokenCommand')}</span>
          <pre className="config-text">{command}</pre>
          <div className="config-panel__actions">
            <Button onClick={() => void copy(command)}>{t('networkDevices.copyCommand')}</Button>
          </div>
        </div>
      </div>
    </Dialog>
  );
}
