import type { User } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { Pagination } from '@/components/Pagination';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { AddUserDialog } from './AddUserDialog';
import { AssignGroupsDialog } from './AssignGroupsDialog';
import { DeleteUserDialog } from './DeleteUserDialog';
import { SetPasswordDialog } from './SetPasswordDialog';
import { UsersTable } from './UsersTable';
import { UsersToolbar } from './UsersToolbar';
import { usersListQueryOptions } from './users.queries';
import { type UsersSearch, withUsersSearchDefaults } from './users-search';
import './users.css';

type Dialog = { kind: 'add' } | { kind: 'assign' } | { kind: 'password'; user: User } | { kind: 'delete'; user: User } | undefined;

export function UsersPage() {
  const { t } = useTranslation();
  const search = useSearch({ from: '/_authed/_admin/users/' });
  const navigate = useNavigate({ from: '/users/' });
  const params = withUsersSearchDefaults(search);
  const list = useQuery(usersListQueryOptions(params));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(undefined);

  const setSearch = (patch: Partial<UsersSearch>) =>
    void navigate({ search: (prev: UsersSearch) => ({ ...prev, ...patch }), replace: true });
  const close = () => setDialog(undefined);

  return (
    <section aria-labelledby="users-title">
      <header className="page-header">
        <h1 id="users-title" className="page-header__title">
          {t('users.title')}
        </h1>
        <div className="page-header__actions">
          <Button variant="primary" onClick={() => setDialog({ kind: 'add' })}>
            + {t('users.add')}
          </Button>
        </div>
      </header>
      <div className="card">
        <UsersToolbar params={params} onChange={(patch) => setSearch({ ...patch, page: undefined })} />
        {selected.size > 0 ? (
          <section className="bulk-bar" aria-label={t('users.selected', { count: selected.size })}>
            <span>{t('users.selected', { count: selected.size })}</span>
            <Button size="sm" variant="primary" onClick={() => setDialog({ kind: 'assign' })}>
              {t('users.assignGroups')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
              {t('users.clearSelection')}
            </Button>
          </section>
        ) : null}
        {list.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : list.isError ? (
          <StateMessage kind="error" title={t('users.loadError')} onRetry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <StateMessage kind="empty" title={t('users.empty')} hint={t('users.emptyHint')} />
        ) : (
          <>
            <UsersTable
              users={list.data.items}
              sort={params.sort}
              onSortChange={(sort) => setSearch({ sort })}
              selected={selected}
              onSelectedChange={setSelected}
              isFetching={list.isPlaceholderData}
              onSetPassword={(user) => setDialog({ kind: 'password', user })}
              onDelete={(user) => setDialog({ kind: 'delete', user })}
            />
            <Pagination
              page={list.data.page}
              perPage={list.data.per_page}
              total={list.data.total}
              onPageChange={(page) => setSearch({ page })}
              onPerPageChange={(per_page) => setSearch({ per_page, page: undefined })}
            />
          </>
        )}
      </div>
      <AddUserDialog isOpen={dialog?.kind === 'add'} onClose={close} />
      <AssignGroupsDialog
        isOpen={dialog?.kind === 'assign'}
        usernames={[...selected]}
        onClose={close}
        onDone={() => setSelected(new Set())}
      />
      {dialog?.kind === 'password' ? <SetPasswordDialog username={dialog.user.username} onClose={close} /> : null}
      {dialog?.kind === 'delete' ? <DeleteUserDialog user={dialog.user} onClose={close} /> : null}
    </section>
  );
}
