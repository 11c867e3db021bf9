import type { AclAlias } from '@palisade/contracts';
import { useTranslation } from '@/i18n/use-translation';
import { useSettleAclAliases } from './acl.mutations';
import { affectedRules } from './alias-form';
import { type SettleAction, SettleConfirmDialog } from './SettleConfirmDialog';

interface SettleAliasesDialogProps {
  action: SettleAction;
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
  return (
    <SettleConfirmDialog
      action={action}
      toastId="acl-aliases"
      title={t(isApply ? 'acl.alias.deployTitle' : 'acl.alias.discardTitle')}
      doneMessage={t(isApply ? 'acl.alias.deployDone' : 'acl.alias.discardDone', { count })}
      isPending={settle.isPending}
      settle={(callbacks) => settle.mutate({ action, aliases: changes.map((a) => a.id) }, callbacks)}
      onDone={onClose}
      onClose={onClose}
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
    </SettleConfirmDialog>
  );
}
