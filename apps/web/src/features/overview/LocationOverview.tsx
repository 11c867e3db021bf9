import type { Network } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { StateMessage } from '@/components/StateMessage';
import { GatewaysPanel } from '@/features/gateways/GatewaysPanel';
import { useTranslation } from '@/i18n/use-translation';
import { ConnectedTable, ConnectedUsers } from './ConnectedUsers';
import { QueryStates } from './QueryStates';
import { UsageSummary } from './UsageSummary';
import { locationStatsQueryOptions, locationUsersStatsQueryOptions } from './overview.queries';
import type { OverviewView } from './period';

/** One location: its figures and chart, its gateways (live status and the setup link), and who is connected. */
export function LocationOverview({ location, period, view }: { location: Network; period: number; view: OverviewView }) {
  const { t } = useTranslation();
  const stats = useQuery(locationStatsQueryOptions(location.id, period));
  const users = useQuery(locationUsersStatsQueryOptions(location.id, period));
  return (
    <>
      <UsageSummary stats={stats} period={period} chartLabel={t('overview.chart.labelFor', { name: location.name })} />
      <GatewaysPanel locationId={location.id} />
      <section aria-labelledby="connected-users-title" className="overview-connected">
        <h2 id="connected-users-title" className="overview-section-header__title">
          {t('overview.connectedUsersTitle')}
        </h2>
        <QueryStates query={users} errorTitle="overview.usersLoadError">
          {(data) =>
            data.users.length === 0 && data.network_devices.length === 0 ? (
              <div className="card">
                <StateMessage kind="empty" title={t('overview.noUsers')} hint={t('overview.noUsersHint')} />
              </div>
            ) : (
              <>
                {data.users.length ? <ConnectedUsers users={data.users} view={view} /> : null}
                {data.network_devices.length ? (
                  <>
                    <h3 className="overview-subtitle">{t('overview.networkDevices')}</h3>
                    <ConnectedTable rows={data.network_devices.map((device) => ({ owner: t('overview.networkDevice'), device }))} />
                  </>
                ) : null}
              </>
            )
          }
        </QueryStates>
      </section>
    </>
  );
}
