import { useEffect, useState } from 'react';
import { Button } from '@/components/Button';
import { SearchField } from '@/components/SearchField';
import { useTranslation } from '@/i18n/use-translation';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import type { ActivitySearch } from './activity-search';
import { DateRangeFilter } from './DateRangeFilter';
import { eventLabelKey, FILTER_EVENTS, FILTER_MODULES, moduleLabelKey } from './event-labels';
import { OptionsFilter } from './OptionsFilter';
import { UserFilter } from './UserFilter';

interface ActivityToolbarProps {
  search: ActivitySearch;
  isAdmin: boolean;
  onChange: (patch: Partial<ActivitySearch>) => void;
  onClear: () => void;
}

/** Free text (debounced), time range, users (administrators only), modules and event types. */
export function ActivityToolbar({ search, isAdmin, onChange, onClear }: ActivityToolbarProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(search.search ?? '');
  const debounced = useDebouncedValue(text.trim(), 300);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a changed debounced term updates the URL
  useEffect(() => {
    if (debounced !== (search.search ?? '')) onChange({ search: debounced || undefined });
  }, [debounced]);
  // "Clear filters" and back/forward change the URL behind the box's back: the box follows. Its
  // own debounced term is already in the URL, so typing on is never overwritten.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the URL only
  useEffect(() => {
    if ((search.search ?? '') !== debounced) setText(search.search ?? '');
  }, [search.search]);

  const modules = FILTER_MODULES.map((value) => ({ value, label: t(moduleLabelKey(value)) }));
  const events = FILTER_EVENTS.map((value) => ({ value, label: t(eventLabelKey(value)) }));
  return (
    <div className="toolbar activity-toolbar">
      <SearchField
        id="activity-search"
        label={t('activity.search')}
        placeholder={t('activity.searchPlaceholder')}
        value={text}
        onValueChange={setText}
        isLabelHidden={false}
        maxLength={128}
        autoComplete="off"
      />
      <DateRangeFilter search={search} onChange={onChange} />
      {isAdmin ? <UserFilter values={search.user ?? []} onValuesChange={(user) => onChange({ user })} /> : null}
      <OptionsFilter
        label={t('activity.modules')}
        options={modules}
        values={search.module ?? []}
        onValuesChange={(module) => onChange({ module })}
      />
      <OptionsFilter
        label={t('activity.events')}
        options={events}
        values={search.event ?? []}
        onValuesChange={(event) => onChange({ event })}
      />
      <Button variant="ghost" size="sm" className="activity-toolbar__clear" onClick={onClear}>
        {t('activity.clearFilters')}
      </Button>
    </div>
  );
}
