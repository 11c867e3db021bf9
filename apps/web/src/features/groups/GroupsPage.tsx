import type { GroupInfo } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { DeleteGroupDialog } from './DeleteGroupDialog';
import { GroupCard } from './GroupCard';
import { GroupDialog } from './GroupDialog';
import { groupsQueryOptions } from './groups.queries';
import './groups.css';

type DialogState = { kind: 'create' } | { kind: 'edit'; group: GroupInfo } | { kind: 'delete'; group: GroupInfo } | undefined;

export function GroupsPage() {
  const { t } = useTranslation();
  const groups = useQuery(groupsQueryOptions);
  const [dialog, setDialog] = useState<DialogState>(undefined);
  const close = () => setDialog(undefined);

  return (
    <section aria-labelledby="groups-title">
      <header className="page-header">
        <h1 id="groups-title" className="page-header__title">
          {t('groups.title')}
        </h1>
        <div className="page-header__actions">
          <Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>
            + {t('groups.add')}
          </Button>
        </div>
      </header>
      {groups.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : groups.isError ? (
        <StateMessage kind="error" title={t('groups.loadError')} onRetry={() => void groups.refetch()} />
      ) : groups.data.length === 0 ? (
        <div className="card">
          <StateMessage kind="empty" title={t('groups.empty')} hint={t('groups.emptyHint')} />
        </div>
      ) : (
        <ul className="group-grid">
          {groups.data.map((group) => (
            <li key={group.id}>
              <GroupCard
                group={group}
                onEdit={() => setDialog({ kind: 'edit', group })}
                onDelete={() => setDialog({ kind: 'delete', group })}
              />
            </li>
          ))}
        </ul>
      )}
      {dialog?.kind === 'create' ? <GroupDialog onClose={close} /> : null}
      {dialog?.kind === 'edit' ? <GroupDialog group={dialog.group} onClose={close} /> : null}
      {dialog?.kind === 'delete' ? <DeleteGroupDialog name={dialog.group.name} onClose={close} /> : null}
    </section>
  );
}
