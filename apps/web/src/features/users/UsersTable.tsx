import type { User, UserListQuery } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { UserRow } from './UserRow';

type Sort = UserListQuery['sort'];
type SortColumn = 'username' | 'email' | 'created_at';

interface UsersTableProps {
  users: readonly User[];
  sort: Sort;
  onSortChange: (sort: Sort) => void;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: ReadonlySet<string>) => void;
  isFetching: boolean;
  onSetPassword: (user: User) => void;
  onDelete: (user: User) => void;
}

export function UsersTable({
  users,
  sort,
  onSortChange,
  selected,
  onSelectedChange,
  isFetching,
  onSetPassword,
  onDelete,
}: UsersTableProps) {
  const { t } = useTranslation();
  const allSelected = users.length > 0 && users.every((u) => selected.has(u.username));
  const toggleAll = () => {
    const next = new Set(selected);
    for (const u of users) allSelected ? next.delete(u.username) : next.add(u.username);
    onSelectedChange(next);
  };
  const toggle = (username: string) => {
    const next = new Set(selected);
    if (!next.delete(username)) next.add(username);
    onSelectedChange(next);
  };

  const header = (column: SortColumn, label: MessageKey, className?: string) => {
    const direction = sort === column ? 'ascending' : sort === `-${column}` ? 'descending' : undefined;
    const nextSort = (sort === column ? `-${column}` : column) as Sort;
    return (
      <th scope="col" className={className} aria-sort={direction ?? 'none'}>
        <button
          type="button"
          className="sort-btn"
          onClick={() => onSortChange(nextSort)}
          aria-label={t('users.sortBy', { column: t(label) })}
        >
          {t(label)}
          <span aria-hidden="true" className="sort-btn__arrow">
            {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
          </span>
        </button>
      </th>
    );
  };

  return (
    <div className="table-wrap" aria-busy={isFetching || undefined}>
      <table className={isFetching ? 'table table--stale' : 'table'}>
        <thead>
          <tr>
            <th scope="col" className="col-check">
              <input type="checkbox" className="checkbox" checked={allSelected} onChange={toggleAll} aria-label={t('users.selectPage')} />
            </th>
            {header('username', 'users.col.name')}
            {header('email', 'users.col.email', 'col-md')}
            <th scope="col" className="col-lg">
              {t('users.col.groups')}
            </th>
            <th scope="col">{t('users.col.status')}</th>
            {header('created_at', 'users.col.created', 'col-lg')}
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <UserRow
              key={user.id}
              user={user}
              isSelected={selected.has(user.username)}
              onToggle={() => toggle(user.username)}
              onSetPassword={() => onSetPassword(user)}
              onDelete={() => onDelete(user)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
