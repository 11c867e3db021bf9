import type { LocationGateways, Network } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
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

/** Every location at once: the summed figures and chart, then each location as a card (grid) or a row (list) with its live gateway status. */
export function AllLocationsOverview({ locations, period, view, search }: AllLocationsOverviewProps) {
  const { t } = useTranslation();
  const stats = useQuery(networkStatsQueryOptions(period));
  const gateways = useQuery(allGatewaysQueryOptions());
  const byLocation = new Map<number, LocationGateways>(gateways.data?.map((g) => [g.location_id, g]) ?? []);
  // A location created after the last answer has no entry yet: it shows as checking until the next one.
  const statusOf = (id: number): GatewaysCheck | undefined => (gateways.isError ? 'error' : byLocation.get(id)?.status);

  return (
    <>
      <UsageSummary stats={stats} period={period} chartLabel={t('overview.chart.labelAll')} />
      <div className="overview-section-header">
        <h2 className="overview-section-header__title">{t('overview.locations')}</h2>
        {gateways.isError ? (
          <p className="field__error" role="alert">
            {t('error.gateways.status')}
          </p>
        ) : null}
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
