import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { usersListQueryOptions } from '@/features/users/users.queries';
import { useTranslation } from '@/i18n/use-translation';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { FilterPopover } from './FilterPopover';

const PAGE_SIZE = 20;

/**
 * Users to filter by (administrators only): chosen ones stay listed first, the rest come from a
 * server search over the user list, so any of 10,000 users can be found without loading them all.
 */
export function UserFilter({ values, onValuesChange }: { values: readonly string[]; onValuesChange: (values: string[]) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 250);
  const users = useQuery(
    usersListQueryOptions({ page: 1, per_page: PAGE_SIZE, filter: 'all', sort: 'username', ...(search ? { search } : {}) }),
  );
  const found = (users.data?.items ?? []).map((u) => u.username).filter((name) => !values.includes(name));
  const toggle = (name: string, isOn: boolean) => onValuesChange(isOn ? [...values, name] : values.filter((v) => v !== name));
  return (
    <FilterPopover label={t('activity.users')} count={values.length} onClear={() => onValuesChange([])}>
      <input
        type="search"
        className="input activity-filter__search"
        aria-label={t('activity.usersSearch')}
        placeholder={t('activity.usersSearch')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
      <div className="check-list activity-filter__list">
        {values.map((name) => (
          <CheckboxField key={name} label={name} checked onCheckedChange={(isOn) => toggle(name, isOn)} />
        ))}
        {found.map((name) => (
          <CheckboxField key={name} label={name} checked={false} onCheckedChange={(isOn) => toggle(name, isOn)} />
        ))}
        {users.isPending ? <p className="muted">{t('common.loading')}</p> : null}
        {users.isError ? <p className="field__error">{t('activity.usersLoadError')}</p> : null}
        {users.isSuccess && found.length === 0 && values.length === 0 ? <p className="muted">{t('activity.filter.noMatches')}</p> : null}
      </div>
    </FilterPopover>
  );
}
