import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { useTranslation } from '@/i18n/use-translation';
import { downloadText } from '@/lib/download';
import { useCopy } from '@/lib/use-copy';

/** One code per line, as copied and downloaded. */
export const recoveryCodesText = (codes: readonly string[]): string => `${codes.join('\n')}\n`;

/** Recovery codes are shown once: copy them or save them as a text file before closing. */
export function RecoveryCodesDialog({ codes, onClose }: { codes: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const copy = useCopy();
  return (
    <Dialog
      title={t('mfa.recovery.title')}
      isOpen
      onClose={onClose}
      confirmClose={t('mfa.recovery.confirmClose')}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('mfa.recovery.saved')}
        </Button>
      }
    >
      <p>{t('mfa.recovery.intro')}</p>
      <ul className="recovery-codes" aria-label={t('mfa.recovery.title')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="mfa-actions">
        <Button onClick={() => void copy(recoveryCodesText(codes))}>{t('mfa.recovery.copy')}</Button>
        <Button onClick={() => downloadText('palisade-recovery-codes.txt', recoveryCodesText(codes))}>{t('mfa.recovery.download')}</Button>
      </div>
    </Dialog>
  );
}
