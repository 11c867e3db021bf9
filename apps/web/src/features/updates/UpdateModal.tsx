import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import type { UpdateInfo } from '@/features/app/updates-store';
import { useAppStore } from '@/features/app/app-store';
import { useTranslation } from '@/i18n/use-translation';

/** Spec §2: the update modal ('more' on the update toast): version, critical marker, release notes. */
export function UpdateModal({ update, onClose }: { update: UpdateInfo | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const current = useAppStore((s) => s.appInfo?.version);
  return (
    <Dialog
      title={t('updates.modal.title')}
      isOpen={update !== undefined}
      onClose={onClose}
      size="sm"
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      {update ? (
        <div>
          <p>{t('updates.modal.version', { version: update.version })}</p>
          {current ? <p className="muted">{t('updates.modal.current', { version: current })}</p> : null}
          {update.critical ? (
            <p>
              <Badge tone="warning">{t('updates.critical')}</Badge> {t('updates.modal.critical')}
            </p>
          ) : null}
          <p>
            <a href={update.release_notes_url} target="_blank" rel="noopener noreferrer">
              {t('updates.releaseNotes')}
            </a>
          </p>
        </div>
      ) : null}
    </Dialog>
  );
}
