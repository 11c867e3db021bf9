import type { User } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDeleteUser } from './users.mutations';

export function DeleteUserDialog({ user, onClose, onDeleted }: { user: User; onClose: () => void; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteUser();
  const confirm = () =>
    remove.mutate(user.username, {
      onSuccess: () => {
        pushToast({ id: `user-deleted-${user.username}`, kind: 'success', message: t('users.toast.deleted', { username: user.username }) });
        onClose();
        onDeleted?.();
      },
      onError: (error) => pushToast({ id: `user-delete-error-${user.username}`, kind: 'error', message: problemMessage(t, error) }),
    });
  return (
    <ConfirmDialog
      title={t('users.delete.title')}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('users.delete.message', { username: user.username })}</p>
    </ConfirmDialog>
  );
}
