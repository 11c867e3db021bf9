import type { Network } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { GatewaysStatusBadge } from '@/features/gateways/GatewaysStatusBadge';
import type { GatewaysCheck } from '@/features/gateways/gateway-status';
import { formatNumber } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { locationStatsQueryOptions } from './overview.queries';
import type { OverviewSearch } from './period';
import { findPeak, formatBytes, toBuckets } from './usage-series';

interface TableProps {
  locations: readonly Network[];
  period: number;
  search: OverviewSearch;
  statusOf: (id: number) => GatewaysCheck | undefined;
}

/** List view of the all-locations overview. */
export function LocationsStatsTable({ locations, period, search, statusOf }: TableProps) {
  const { t } = useTranslation();
  return (
    <div className="card table-wrap">
      <table className="table locations-stats">
        <thead>
          <tr>
            <th scope="col">{t('locations.name')}</th>
            <th scope="col">{t('gateways.title')}</th>
            <th scope="col">{t('overview.connectedUsers')}</th>
            <th scope="col" className="col-md">
              {t('overview.connectedNetworkDevices')}
            </th>
            <th scope="col" className="col-lg">
              {t('overview.col.peak')}
            </th>
            <th scope="col" className="col-md">
              {t('overview.col.totalIn')}
            </th>
            <th scope="col" className="col-md">
              {t('overview.col.totalOut')}
            </th>
          </tr>
        </thead>
        <tbody>
          {locations.map((l) => (
            <LocationStatsRow key={l.id} location={l} period={period} search={search} status={statusOf(l.id)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LocationStatsRow({
  location,
  period,
  search,
  status,
}: {
  location: Network;
  period: number;
  search: OverviewSearch;
  status: GatewaysCheck | undefined;
}) {
  const { t, language } = useTranslation();
  const stats = useQuery(locationStatsQueryOptions(location.id, period));
  const data = stats.data;
  const peak = data
    ? findPeak(toBuckets(data.transfer_series, Date.parse(data.from), stats.dataUpdatedAt, data.bucket_seconds))
    : undefined;
  const cell = (value: string | undefined) => (stats.isError ? <span className="muted">{t('overview.unavailable')}</span> : (value ?? '…'));
  return (
    <tr>
      <td>
        <Link to="/overview/$locationId" params={{ locationId: String(location.id) }} search={search} className="location-cell__name">
          {location.name}
        </Link>
      </td>
      <td>
        <GatewaysStatusBadge status={status} />
      </td>
      <td>{cell(data && formatNumber(language, data.current_active_users))}</td>
      <td className="col-md">{cell(data && formatNumber(language, data.current_active_network_devices))}</td>
      <td className="col-lg">{cell(data && formatBytes(language, peak?.total ?? 0))}</td>
      <td className="col-md">{cell(data && formatBytes(language, data.download))}</td>
      <td className="col-md">{cell(data && formatBytes(language, data.upload))}</td>
    </tr>
  );
}
