import { useTranslation } from '@/i18n/use-translation';
import { useSettleAclRules } from './acl.mutations';
import { type SettleAction, SettleConfirmDialog } from './SettleConfirmDialog';

interface SettleRulesDialogProps {
  action: SettleAction;
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
  return (
    <SettleConfirmDialog
      action={action}
      toastId="acl-rules"
      title={t(isApply ? 'acl.deploy.title' : 'acl.discard.title')}
      doneMessage={t(isApply ? 'acl.deploy.done' : 'acl.discard.done', { count })}
      isPending={settle.isPending}
      settle={(callbacks) => settle.mutate({ action, rules: [...rules] }, callbacks)}
      onDone={onDone}
      onClose={onClose}
    >
      <p>{t(isApply ? 'acl.deploy.message' : 'acl.discard.message', { count })}</p>
    </SettleConfirmDialog>
  );
}
