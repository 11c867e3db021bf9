import type { Network } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { GatewaysPanel } from '@/features/gateways/GatewaysPanel';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { ConnectedTable, ConnectedUsers } from './ConnectedUsers';
import { NetworkUsage } from './NetworkUsage';
import { StatsFigures } from './StatsFigures';
import { locationStatsQueryOptions, locationUsersStatsQueryOptions } from './overview.queries';
import type { OverviewView } from './period';

/** One location: its figures and chart, its gateways (checked on demand), and who is connected. */
export function LocationOverview({ location, period, view }: { location: Network; period: number; view: OverviewView }) {
  const { t } = useTranslation();
  const stats = useQuery(locationStatsQueryOptions(location.id, period));
  const users = useQuery(locationUsersStatsQueryOptions(location.id, period));
  return (
    <>
      <section className="card overview-summary" aria-labelledby="overview-summary-title">
        <div className="card__header">
          <h2 id="overview-summary-title" className="card__title">
            {t('overview.networkUsage')}
          </h2>
          <Link to="/locations/$id/gateway" params={{ id: String(location.id) }} className="btn btn--sm btn--ghost">
            {t('gateways.setupLink')}
          </Link>
        </div>
        <div className="card__body">
          {stats.isPending ? (
            <StateMessage kind="loading" title={t('common.loading')} />
          ) : stats.isError ? (
            <StateMessage
              kind="error"
              title={t('overview.loadError')}
              hint={problemMessage(t, stats.error)}
              onRetry={() => void stats.refetch()}
            />
          ) : (
            <div className="overview-summary__body">
              <StatsFigures stats={stats.data} />
              <NetworkUsage
                stats={stats.data}
                updatedAt={stats.dataUpdatedAt}
                period={period}
                chartLabel={t('overview.chart.labelFor', { name: location.name })}
              />
            </div>
          )}
        </div>
      </section>
      <GatewaysPanel locationId={location.id} />
      <section aria-labelledby="connected-users-title" className="overview-connected">
        <h2 id="connected-users-title" className="overview-section-header__title">
          {t('overview.connectedUsersTitle')}
        </h2>
        {users.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : users.isError ? (
          <StateMessage
            kind="error"
            title={t('overview.usersLoadError')}
            hint={problemMessage(t, users.error)}
            onRetry={() => void users.refetch()}
          />
        ) : users.data.users.length === 0 && users.data.network_devices.length === 0 ? (
          <div className="card">
            <StateMessage kind="empty" title={t('overview.noUsers')} hint={t('overview.noUsersHint')} />
          </div>
        ) : (
          <>
            {users.data.users.length ? <ConnectedUsers users={users.data.users} view={view} /> : null}
            {users.data.network_devices.length ? (
              <>
                <h3 className="overview-subtitle">{t('overview.networkDevices')}</h3>
                <ConnectedTable rows={users.data.network_devices.map((device) => ({ owner: t('overview.networkDevice'), device }))} />
              </>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}
