import type { AclAlias } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import { useEnterpriseLocked } from '@/features/licence/UpgradePrompt';
import { useTranslation } from '@/i18n/use-translation';
import { AclTabs } from './AclTabs';
import { AliasDialog } from './AliasDialog';
import { type AliasAction, AliasesTable } from './AliasesTable';
import { DeleteAliasDialog } from './DeleteAliasDialog';
import { SettleAliasesDialog } from './SettleAliasesDialog';
import { aclAliasesQueryOptions } from './acl.queries';
import { currentAliases } from './alias-form';
import '@/features/users/users.css';
import './acl.css';

type PageDialog =
  | { kind: 'add' }
  | { kind: 'edit' | 'delete'; alias: AclAlias }
  | { kind: 'apply' | 'discard'; changes: AclAlias[] }
  | undefined;

/** Spec §2 ACL, Aliases tab: every alias (its pending version when changed); deploy changes with the affected rules shown. */
export function AclAliasesPage() {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<PageDialog>(undefined);
  const list = useQuery(aclAliasesQueryOptions);
  const locked = useEnterpriseLocked();
  const all = list.data ?? [];
  const shown = currentAliases(all);
  const changes = shown.filter((a) => a.state === 'changed');
  const onAction = (action: AliasAction, alias: AclAlias) =>
    setDialog(
      action === 'deploy'
        ? { kind: 'apply', changes: [alias] }
        : action === 'discard'
          ? { kind: 'discard', changes: [alias] }
          : { kind: action, alias },
    );
  const close = () => setDialog(undefined);

  return (
    <section aria-labelledby="acl-title">
      <header className="page-header">
        <h1 id="acl-title" className="page-header__title">
          {t('acl.title')}
        </h1>
        <div className="page-header__actions">
          {changes.length > 0 ? (
            <Button variant="primary" onClick={() => setDialog({ kind: 'apply', changes })} disabled={locked}>
              {t('acl.alias.deployAll', { count: changes.length })}
            </Button>
          ) : null}
          <Button variant={changes.length > 0 ? 'secondary' : 'primary'} onClick={() => setDialog({ kind: 'add' })} disabled={locked}>
            {t('acl.alias.add')}
          </Button>
        </div>
      </header>
      <AclTabs />
      <div className="card">
        <p className="field__hint acl-section__intro">{t('acl.alias.intro')}</p>
        {list.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : list.isError ? (
          <StateMessage kind="error" title={t('acl.alias.loadError')} onRetry={() => void list.refetch()} />
        ) : shown.length === 0 ? (
          <StateMessage kind="empty" title={t('acl.alias.empty')} hint={t('acl.alias.emptyHint')} />
        ) : (
          <AliasesTable aliases={shown} all={all} onAction={onAction} />
        )}
      </div>
      {dialog?.kind === 'add' ? <AliasDialog onClose={close} /> : null}
      {dialog?.kind === 'edit' ? <AliasDialog alias={dialog.alias} onClose={close} /> : null}
      {dialog?.kind === 'delete' ? <DeleteAliasDialog alias={dialog.alias} onClose={close} /> : null}
      {dialog?.kind === 'apply' || dialog?.kind === 'discard' ? (
        <SettleAliasesDialog action={dialog.kind} changes={dialog.changes} all={all} onClose={close} />
      ) : null}
    </section>
  );
}
