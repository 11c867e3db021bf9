import type { AclAlias } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useSettleAclAliases } from './acl.mutations';
import { affectedRules } from './alias-form';

interface SettleAliasesDialogProps {
  action: 'apply' | 'discard';
  /** The pending alias changes to deploy or discard. */
  changes: readonly AclAlias[];
  all: readonly AclAlias[];
  onClose: () => void;
}

/** Spec §4: deploying changed aliases first shows the deployed rules it affects. */
export function SettleAliasesDialog({ action, changes, all, onClose }: SettleAliasesDialogProps) {
  const { t } = useTranslation();
  const settle = useSettleAclAliases();
  const count = changes.length;
  const isApply = action === 'apply';
  const affected = isApply ? affectedRules(all, changes) : [];
  const confirm = () =>
    settle.mutate(
      { action, aliases: changes.map((a) => a.id) },
      {
        onSuccess: () => {
          pushToast({
            id: `acl-aliases-${action}`,
            kind: 'success',
            message: t(isApply ? 'acl.alias.deployDone' : 'acl.alias.discardDone', { count }),
          });
          onClose();
        },
        onError: (error) => pushToast({ id: `acl-aliases-${action}-error`, kind: 'error', message: problemMessage(t, error) }),
      },
    );
  return (
    <ConfirmDialog
      title={t(isApply ? 'acl.alias.deployTitle' : 'acl.alias.discardTitle')}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t(isApply ? 'acl.deploy.confirm' : 'acl.discard.confirm')}
      isDanger={!isApply}
      isPending={settle.isPending}
    >
      <p>{t(isApply ? 'acl.alias.deployMessage' : 'acl.alias.discardMessage', { count })}</p>
      {isApply ? (
        affected.length ? (
          <>
            <p>{t('acl.alias.affected', { count: affected.length })}</p>
            <ul className="acl-rule-list" aria-label={t('acl.alias.affectedLabel')}>
              {affected.map((rule) => (
                <li key={rule.id}>{rule.name}</li>
              ))}
            </ul>
          </>
        ) : (
          <p>{t('acl.alias.noneAffected')}</p>
        )
      ) : null}
    </ConfirmDialog>
  );
}
