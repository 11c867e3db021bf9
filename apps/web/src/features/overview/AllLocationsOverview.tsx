import type { LocationGateways, Network } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import type { GatewaysCheck } from '@/features/gateways/gateway-status';
import { allGatewaysQueryOptions } from '@/features/gateways/gateways.queries';
import { useTranslation } from '@/i18n/use-translation';
import { LocationCard } from './LocationCard';
import { LocationsStatsTable } from './LocationsStatsTable';
import { UsageSummary } from './UsageSummary';
import { networkStatsQueryOptions } from './overview.queries';
import type { OverviewSearch, OverviewView } from './period';

interface AllLocationsOverviewProps {
  locations: readonly Network[];
  period: number;
  view: OverviewView;
  search: OverviewSearch;
}

/** Every location at once: the summed figures and chart, then each location as a card (grid) or a row (list). */
export function AllLocationsOverview({ locations, period, view, search }: AllLocationsOverviewProps) {
  const { t } = useTranslation();
  const stats = useQuery(networkStatsQueryOptions(period));
  const [isChecked, setIsChecked] = useState(false);
  const gateways = useQuery(allGatewaysQueryOptions(isChecked));
  const byLocation = new Map<number, LocationGateways>(gateways.data?.map((g) => [g.location_id, g]) ?? []);
  const statusOf = (id: number): GatewaysCheck | undefined =>
    !isChecked || gateways.isFetching ? undefined : gateways.isError ? 'error' : (byLocation.get(id)?.status ?? 'none_connected');

  return (
    <>
      <UsageSummary stats={stats} period={period} chartLabel={t('overview.chart.labelAll')} />
      <div className="overview-section-header">
        <h2 className="overview-section-header__title">{t('overview.locations')}</h2>
        <div className="gateways-panel__actions" aria-live="polite">
          {gateways.isError ? <span className="field__error">{t('error.gateways.status')}</span> : null}
          <Button size="sm" onClick={() => (isChecked ? void gateways.refetch() : setIsChecked(true))} isLoading={gateways.isFetching}>
            {isChecked ? t('gateways.checkAgain') : t('gateways.checkAll')}
          </Button>
        </div>
      </div>
      {view === 'grid' ? (
        <div className="location-grid">
          {locations.map((l) => (
            <LocationCard key={l.id} location={l} period={period} search={search} gatewayStatus={statusOf(l.id)} />
          ))}
        </div>
      ) : (
        <LocationsStatsTable locations={locations} period={period} search={search} statusOf={statusOf} />
      )}
    </>
  );
}
