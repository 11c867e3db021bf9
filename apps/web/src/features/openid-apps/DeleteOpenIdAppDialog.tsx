import type { OAuthClient } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDeleteOpenIdApp } from './openid-apps.mutations';

export function DeleteOpenIdAppDialog({ app, onClose }: { app: OAuthClient; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteOpenIdApp();
  const confirm = () =>
    remove.mutate(app.client_id, {
      onSuccess: () => {
        pushToast({ id: `openid-app-deleted-${app.client_id}`, kind: 'success', message: t('openidApps.toast.deleted') });
        onClose();
      },
      onError: (error) => pushToast({ id: `openid-app-delete-error-${app.client_id}`, kind: 'error', message: problemMessage(t, error) }),
    });
  return (
    <ConfirmDialog
      title={t('openidApps.deleteTitle')}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('openidApps.deleteMessage', { name: app.name })}</p>
    </ConfirmDialog>
  );
}
