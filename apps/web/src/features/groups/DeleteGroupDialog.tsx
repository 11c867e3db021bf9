import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { withoutGroup } from './admin-change';
import { useDeleteGroup } from './groups.mutations';
import { useAdminChange } from './use-admin-change';

export function DeleteGroupDialog({ name, onClose }: { name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteGroup();
  const { assess, leaveAdmin } = useAdminChange();
  const isSelfDemotion = assess((all) => withoutGroup(all, name))?.kind === 'self';
  const confirm = () =>
    remove.mutate(
      { name, ...(isSelfDemotion ? { after: leaveAdmin } : {}) },
      {
        onSuccess: () => {
          pushToast({ id: `group-deleted-${name}`, kind: 'success', message: t('groups.toast.deleted', { name }) });
          onClose();
        },
        onError: (error) => pushToast({ id: `group-delete-error-${name}`, kind: 'error', message: problemMessage(t, error) }),
      },
    );
  return (
    <ConfirmDialog
      title={t('groups.deleteNamed', { name })}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('groups.delete.message', { name })}</p>
      {isSelfDemotion ? (
        <p className="banner banner--warning" role="alert">
          {t('groups.confirm.selfMessage')}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
