import type { AclRule } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDeleteAclRule } from './acl.mutations';

/**
 * A new rule goes at once; a deployed one (or its pending change, which a deletion replaces) is
 * only marked for deletion until that is deployed.
 */
export function DeleteRuleDialog({ rule, onClose }: { rule: AclRule; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteAclRule();
  const isNew = rule.state === 'new';
  const confirm = () =>
    remove.mutate(rule.parent_id ?? rule.id, {
      onSuccess: () => {
        pushToast({
          id: `acl-rule-deleted-${rule.id}`,
          kind: 'success',
          message: t(isNew ? 'acl.rule.deleted' : 'acl.rule.deletePending'),
        });
        onClose();
      },
      onError: (error) => pushToast({ id: `acl-rule-delete-error-${rule.id}`, kind: 'error', message: problemMessage(t, error) }),
    });
  return (
    <ConfirmDialog
      title={t('acl.rule.deleteTitle')}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t(isNew ? 'acl.rule.deleteNewMessage' : 'acl.rule.deleteDeployedMessage', { name: rule.name })}</p>
    </ConfirmDialog>
  );
}
