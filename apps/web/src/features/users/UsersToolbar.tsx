import { USER_FILTERS, type UserListQuery } from '@palisade/contracts';
import { useEffect, useState } from 'react';
import { SelectField } from '@/components/SelectField';
import { SearchField } from '@/components/SearchField';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { UsersListParams, UsersSearch } from './users-search';

const FILTER_LABELS: Record<UserListQuery['filter'], MessageKey> = {
  all: 'users.filter.all',
  admins: 'users.filter.admins',
  users: 'users.filter.users',
};

/** Debounced search and the all/admins/users filter (the filter is an admin-only control). */
export function UsersToolbar({ params, onChange }: { params: UsersListParams; onChange: (patch: Partial<UsersSearch>) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(params.search ?? '');
  const debounced = useDebouncedValue(text.trim(), 300);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a changed debounced term updates the URL
  useEffect(() => {
    if (debounced !== (params.search ?? '')) onChange({ search: debounced || undefined });
  }, [debounced]);

  return (
    <div className="toolbar">
      <SearchField
        id="user-search"
        label={t('users.search')}
        placeholder={t('users.searchPlaceholder')}
        value={text}
        onValueChange={setText}
        maxLength={128}
        autoComplete="off"
      />
      <SelectField
        label={t('users.filter')}
        value={params.filter}
        options={USER_FILTERS.map((value) => ({ value, label: t(FILTER_LABELS[value]) }))}
        onValueChange={(filter) => onChange({ filter })}
        className="toolbar__filter"
      />
    </div>
  );
}
