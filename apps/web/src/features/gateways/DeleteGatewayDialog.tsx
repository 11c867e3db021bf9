import type { Gateway } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useDeleteGateway } from './gateways.mutations';

export function DeleteGatewayDialog({ gateway, onClose }: { gateway: Gateway; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteGateway();
  const confirm = () =>
    remove.mutate(
      { locationId: gateway.location_id, gatewayId: gateway.id },
      {
        onSuccess: () => {
          pushToast({ id: `gateway-deleted-${gateway.id}`, kind: 'success', message: t('gateways.toast.deleted', { name: gateway.name }) });
          onClose();
        },
        // Spec §8 'Failed to delete gateway', unless the server named a more precise reason.
        onError: (error) =>
          pushToast({
            id: 'gateway-delete-error',
            kind: 'error',
            message: t('error.gateways.delete'),
            ...(hasCode(error, 'gateway.not_found', 'network.not_found') ? { subMessage: problemMessage(t, error) } : {}),
          }),
      },
    );
  return (
    <ConfirmDialog
      title={t('gateways.delete.title', { name: gateway.name })}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('gateways.delete.message', { name: gateway.name })}</p>
    </ConfirmDialog>
  );
}
