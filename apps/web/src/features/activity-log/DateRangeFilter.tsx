import { SelectField } from '@/components/SelectField';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { ACTIVITY_RANGES, type ActivityRange, type ActivitySearch, isoToLocalInput, localInputToIso } from './activity-search';

const RANGE_LABELS: Record<ActivityRange | 'all', MessageKey> = {
  all: 'activity.range.all',
  '1h': 'activity.range.1h',
  '24h': 'activity.range.24h',
  '7d': 'activity.range.7d',
  '30d': 'activity.range.30d',
  custom: 'activity.range.custom',
};

type RangePatch = Pick<ActivitySearch, 'range' | 'from' | 'to'>;

/** Presets relative to now, or a custom from/to in the browser's local time. */
export function DateRangeFilter({ search, onChange }: { search: ActivitySearch; onChange: (patch: RangePatch) => void }) {
  const { t } = useTranslation();
  const value: ActivityRange | 'all' = search.range ?? 'all';
  const choose = (range: ActivityRange | 'all') => {
    if (range === 'all') onChange({ range: undefined, from: undefined, to: undefined });
    else if (range === 'custom') onChange({ range, from: search.from, to: search.to });
    else onChange({ range, from: undefined, to: undefined });
  };
  return (
    <>
      <SelectField
        label={t('activity.range')}
        value={value}
        options={(['all', ...ACTIVITY_RANGES] as const).map((r) => ({ value: r, label: t(RANGE_LABELS[r]) }))}
        onValueChange={choose}
        className="activity-toolbar__range"
      />
      {value === 'custom' ? (
        <>
          <DateTimeField
            label={t('activity.from')}
            edge="start"
            value={search.from}
            max={search.to}
            onChange={(from) => onChange({ range: 'custom', from, to: search.to })}
          />
          <DateTimeField
            label={t('activity.to')}
            edge="end"
            value={search.to}
            min={search.from}
            onChange={(to) => onChange({ range: 'custom', from: search.from, to })}
          />
        </>
      ) : null}
    </>
  );
}

interface DateTimeFieldProps {
  label: string;
  edge: 'start' | 'end';
  value: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
  onChange: (iso: string | undefined) => void;
}

function DateTimeField({ label, edge, value, min, max, onChange }: DateTimeFieldProps) {
  return (
    <label className="field activity-toolbar__date">
      <span className="field__label">{label}</span>
      <input
        type="datetime-local"
        className="input"
        value={isoToLocalInput(value)}
        min={isoToLocalInput(min) || undefined}
        max={isoToLocalInput(max) || undefined}
        onChange={(e) => onChange(localInputToIso(e.target.value, edge))}
      />
    </label>
  );
}
