import type { AclAlias, AclRuleRef } from '@palisade/contracts';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Dialog } from '@/components/Dialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useDeleteAclAlias } from './acl.mutations';
import { rulesBlockingDeletion } from './alias-form';

/** Spec §5: an alias that rules use cannot be deleted; the refusal lists those rules. */
export function DeleteAliasDialog({ alias, onClose }: { alias: AclAlias; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteAclAlias();
  const [blocking, setBlocking] = useState<AclRuleRef[] | undefined>(undefined);
  const confirm = () =>
    remove.mutate(alias.parent_id ?? alias.id, {
      onSuccess: () => {
        pushToast({ id: `acl-alias-deleted-${alias.id}`, kind: 'success', message: t('acl.alias.deleted') });
        onClose();
      },
      onError: (error) => {
        const rules = rulesBlockingDeletion(error);
        if (rules) setBlocking(rules);
        else pushToast({ id: `acl-alias-delete-error-${alias.id}`, kind: 'error', message: problemMessage(t, error) });
      },
    });
  if (blocking)
    return (
      <Dialog
        title={t('acl.alias.inUseTitle')}
        isOpen
        onClose={onClose}
        size="sm"
        isAlert
        footer={
          <Button variant="primary" onClick={onClose} data-autofocus>
            {t('common.close')}
          </Button>
        }
      >
        <p>{t('acl.alias.inUseMessage', { name: alias.name, count: blocking.length })}</p>
        <ul className="acl-rule-list">
          {blocking.map((rule) => (
            <li key={rule.id}>{rule.name}</li>
          ))}
        </ul>
      </Dialog>
    );
  return (
    <ConfirmDialog
      title={t('acl.alias.deleteTitle')}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{t('acl.alias.deleteMessage', { name: alias.name })}</p>
    </ConfirmDialog>
  );
}
