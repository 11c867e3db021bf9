import type { PendingNetworkDevice } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDeletePendingNetworkDevice } from './network-devices.mutations';

/** Confirms removing a device that has not enrolled yet: its CLI token stops working. */
export function DeletePendingDialog({ device, onClose }: { device: PendingNetworkDevice | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeletePendingNetworkDevice();
  const confirm = () => {
    if (!device) return;
    remove.mutate(device.id, {
      onSuccess: () => {
        pushToast({
          id: `pending-device-deleted-${device.id}`,
          kind: 'success',
          message: t('devices.toast.deleted', { name: device.name }),
        });
        onClose();
      },
      onError: (error) => pushToast({ id: 'pending-device-delete-error', kind: 'error', message: problemMessage(t, error) }),
    });
  };
  return (
    <ConfirmDialog
      title={t('networkDevices.pending.deleteTitle')}
      isOpen={device !== undefined}
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('networkDevices.pending.deleteMessage', { name: device?.name ?? '' })}</p>
    </ConfirmDialog>
  );
}
