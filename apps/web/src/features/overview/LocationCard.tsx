import type { Network } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { GatewaysStatusBadge } from '@/features/gateways/GatewaysStatusBadge';
import type { GatewaysCheck } from '@/features/gateways/gateway-status';
import { formatNumber } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { NetworkUsage } from './NetworkUsage';
import { QueryStates } from './QueryStates';
import { locationStatsQueryOptions } from './overview.queries';
import type { OverviewSearch } from './period';

interface LocationCardProps {
  location: Network;
  period: number;
  search: OverviewSearch;
  gatewayStatus: GatewaysCheck | undefined;
}

/** Grid view of the all-locations overview: one card per location with its gateway status, figures and usage chart. */
export function LocationCard({ location, period, search, gatewayStatus }: LocationCardProps) {
  const { t, language } = useTranslation();
  const stats = useQuery(locationStatsQueryOptions(location.id, period));
  const n = (v: number) => formatNumber(language, v);
  return (
    <article className="card location-card" aria-labelledby={`location-card-${location.id}`}>
      <div className="card__header">
        <h3 id={`location-card-${location.id}`} className="card__title">
          <Link to="/overview/$locationId" params={{ locationId: String(location.id) }} search={search} className="location-cell__name">
            {location.name}
          </Link>
        </h3>
        <span className="location-card__gateways" aria-live="polite">
          <span className="muted">{t('gateways.title')}</span>
          <GatewaysStatusBadge status={gatewayStatus} />
        </span>
      </div>
      <div className="card__body">
        <QueryStates query={stats} errorTitle="overview.loadError">
          {(data) => (
            <>
              <dl className="location-card__figures">
                <div>
                  <dt>{t('overview.connectedUsers')}</dt>
                  <dd>{n(data.current_active_users)}</dd>
                </div>
                <div>
                  <dt>{t('overview.connectedNetworkDevices')}</dt>
                  <dd>{n(data.current_active_network_devices)}</dd>
                </div>
              </dl>
              <NetworkUsage
                stats={data}
                updatedAt={stats.dataUpdatedAt}
                period={period}
                chartLabel={t('overview.chart.labelFor', { name: location.name })}
                chartHeight={140}
              />
            </>
          )}
        </QueryStates>
      </div>
    </article>
  );
}
