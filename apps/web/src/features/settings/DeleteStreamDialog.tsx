import type { ActivityLogStream } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDeleteStream } from './streams.mutations';

export function DeleteStreamDialog({ stream, onClose }: { stream: ActivityLogStream; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteStream();
  const confirm = () =>
    remove.mutate(stream.id, {
      onSuccess: () => {
        pushToast({
          id: `stream-deleted-${stream.id}`,
          kind: 'success',
          message: t('settings.streams.toast.deleted', { name: stream.name }),
        });
        onClose();
      },
      onError: (error) => pushToast({ id: `stream-delete-error-${stream.id}`, kind: 'error', message: problemMessage(t, error) }),
    });
  return (
    <ConfirmDialog
      title={t('settings.streams.deleteTitle', { name: stream.name })}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('settings.streams.deleteMessage', { name: stream.name })}</p>
    </ConfirmDialog>
  );
}
