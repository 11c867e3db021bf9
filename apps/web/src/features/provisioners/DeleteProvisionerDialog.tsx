import type { Worker } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDeleteProvisioner } from './provisioners.mutations';

export function DeleteProvisionerDialog({ worker, onClose }: { worker: Worker; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteProvisioner();
  const confirm = () =>
    remove.mutate(worker.id, {
      onSuccess: () => {
        pushToast({ id: `provisioner-deleted-${worker.id}`, kind: 'success', message: t('provisioners.toast.deleted') });
        onClose();
      },
      onError: (error) => pushToast({ id: `provisioner-delete-error-${worker.id}`, kind: 'error', message: problemMessage(t, error) }),
    });
  return (
    <ConfirmDialog
      title={t('provisioners.deleteTitle')}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('provisioners.deleteMessage', { name: worker.name })}</p>
    </ConfirmDialog>
  );
}
