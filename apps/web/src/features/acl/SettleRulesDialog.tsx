import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useSettleAclRules } from './acl.mutations';

interface SettleRulesDialogProps {
  action: 'apply' | 'discard';
  rules: readonly number[];
  onClose: () => void;
  onDone: () => void;
}

/** Spec §4: deploying or discarding pending changes asks first, giving their count. */
export function SettleRulesDialog({ action, rules, onClose, onDone }: SettleRulesDialogProps) {
  const { t } = useTranslation();
  const settle = useSettleAclRules();
  const count = rules.length;
  const isApply = action === 'apply';
  const confirm = () =>
    settle.mutate(
      { action, rules: [...rules] },
      {
        onSuccess: () => {
          pushToast({
            id: `acl-rules-${action}`,
            kind: 'success',
            message: t(isApply ? 'acl.deploy.done' : 'acl.discard.done', { count }),
          });
          onDone();
        },
        onError: (error) => pushToast({ id: `acl-rules-${action}-error`, kind: 'error', message: problemMessage(t, error) }),
      },
    );
  return (
    <ConfirmDialog
      title={t(isApply ? 'acl.deploy.title' : 'acl.discard.title')}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t(isApply ? 'acl.deploy.confirm' : 'acl.discard.confirm')}
      isDanger={!isApply}
      isPending={settle.isPending}
    >
      <p>{t(isApply ? 'acl.deploy.message' : 'acl.discard.message', { count })}</p>
    </ConfirmDialog>
  );
}
