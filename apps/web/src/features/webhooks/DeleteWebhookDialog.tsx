import type { Webhook } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDeleteWebhook } from './webhooks.mutations';

export function DeleteWebhookDialog({ webhook, onClose, onDeleted }: { webhook: Webhook; onClose: () => void; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteWebhook();
  const confirm = () =>
    remove.mutate(webhook.id, {
      onSuccess: () => {
        pushToast({ id: `webhook-deleted-${webhook.id}`, kind: 'success', message: t('webhooks.toast.deleted') });
        onClose();
        onDeleted?.();
      },
      onError: (error) => pushToast({ id: `webhook-delete-error-${webhook.id}`, kind: 'error', message: problemMessage(t, error) }),
    });
  return (
    <ConfirmDialog
      title={t('webhooks.deleteTitle')}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('webhooks.deleteMessage', { url: webhook.url })}</p>
    </ConfirmDialog>
  );
}
