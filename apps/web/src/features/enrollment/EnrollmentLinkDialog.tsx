import type { User } from '@palisade/contracts';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { QrCode } from '@/features/devices/QrCode';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';
import './enrollment.css';

interface EnrollmentLinkDialogProps {
  user: Pick<User, 'username'>;
  link: { url: string; token: string; expires_at: string };
  onClose: () => void;
}

/** The enrollment link and token, shown once for the admin to deliver: copy, or scan the QR code. */
export function EnrollmentLinkDialog({ user, link, onClose }: EnrollmentLinkDialogProps) {
  const { t, language } = useTranslation();
  const copy = useCopy();
  return (
    <Dialog
      title={t('enrollment.link.title', { username: user.username })}
      isOpen
      onClose={onClose}
      confirmClose={t('secret.tokenCloseWarning')}
      footer={<Button onClick={onClose}>{t('secret.savedClose')}</Button>}
    >
      <div className="form-grid">
        <p className="banner banner--warning">{t('enrollment.link.once', { date: formatDateTime(language, link.expires_at) })}</p>
        <div className="enrollment-link">
          <QrCode text={link.url} label={t('enrollment.link.qr')} size={180} />
          <div className="form-grid">
            <div className="field">
              <span className="field__label">{t('enrollment.link.url')}</span>
              <pre className="config-text" data-testid="enrollment-url">
                {link.url}
              </pre>
              <div className="config-panel__actions">
                <Button variant="primary" onClick={() => void copy(link.url)}>
                  {t('enrollment.link.copyUrl')}
                </Button>
              </div>
            </div>
            <div className="field">
              <span className="field__label">{t('enrollment.link.token')}</span>
              <pre className="config-text">{link.token}</pre>
              <div className="config-panel__actions">
                <Button onClick={() => void copy(link.token)}>{t('enrollment.link.copyToken')}</Button>
              </div>
            </div>
          </div>
        </div>
      </div>
    </Dialog>
  );
}
