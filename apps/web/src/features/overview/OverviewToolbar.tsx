import type { Network } from '@palisade/contracts';
import { SelectField } from '@/components/SelectField';
import { useTranslation } from '@/i18n/use-translation';
import { type OverviewView, periodChoices } from './period';

interface OverviewToolbarProps {
  locations: readonly Network[];
  /** Undefined: all locations. */
  locationId: number | undefined;
  period: number;
  view: OverviewView;
  onLocationChange: (id: number | undefined) => void;
  onPeriodChange: (period: number) => void;
  onViewChange: (view: OverviewView) => void;
}

export function OverviewToolbar({
  locations,
  locationId,
  period,
  view,
  onLocationChange,
  onPeriodChange,
  onViewChange,
}: OverviewToolbarProps) {
  const { t } = useTranslation();
  const locationOptions = [
    { value: 'all', label: t('overview.allLocations') },
    ...locations.map((l) => ({ value: String(l.id), label: l.name })),
  ];
  const periodOptions = periodChoices(period).map((h) => ({ value: String(h), label: t('overview.hours', { count: h }) }));
  return (
    <div className="overview-toolbar">
      <SelectField
        className="toolbar__filter"
        label={t('overview.location')}
        value={locationId === undefined ? 'all' : String(locationId)}
        options={locationOptions}
        onValueChange={(v) => onLocationChange(v === 'all' ? undefined : Number(v))}
      />
      <SelectField
        className="toolbar__filter"
        label={t('overview.period')}
        value={String(period)}
        options={periodOptions}
        onValueChange={(v) => onPeriodChange(Number(v))}
      />
      {/* biome-ignore lint/a11y/useSemanticElements: a toggle-button group, not a form fieldset */}
      <div className="segmented" role="group" aria-label={t('overview.view')}>
        {(['grid', 'list'] as const).map((v) => (
          <button key={v} type="button" className="segmented__button" aria-pressed={view === v} onClick={() => onViewChange(v)}>
            {t(v === 'grid' ? 'overview.view.grid' : 'overview.view.list')}
          </button>
        ))}
      </div>
    </div>
  );
}
