import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { useEssentials } from '@/features/app/modules';
import { locationsQueryOptions } from '@/features/locations/locations.queries';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { AllLocationsOverview } from './AllLocationsOverview';
import { LocationOverview } from './LocationOverview';
import { OverviewToolbar } from './OverviewToolbar';
import { DEFAULT_PERIOD, DEFAULT_VIEW, type OverviewSearch, parseOverviewSearch } from './period';
import '@/features/users/users.css';
import '@/features/locations/locations.css';
import '@/features/gateways/gateways.css';
import './overview.css';

/** Spec §2 Location overview: all locations or one, a period in hours, grid or list view. */
export function OverviewPage({ locationId, search }: { locationId?: number; search: OverviewSearch }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locations = useQuery(locationsQueryOptions);
  const period = search.period ?? DEFAULT_PERIOD;
  const essentials = useEssentials();
  // A view in the URL wins; otherwise the instance's default (Settings › Global).
  const view = search.view ?? essentials?.default_network_view ?? DEFAULT_VIEW;
  const go = (id: number | undefined, next: OverviewSearch) => {
    const normalized = parseOverviewSearch({ ...next });
    if (id === undefined) void navigate({ to: '/overview', search: normalized });
    else void navigate({ to: '/overview/$locationId', params: { locationId: String(id) }, search: normalized });
  };
  const location = locationId === undefined ? undefined : locations.data?.find((l) => l.id === locationId);

  return (
    <section aria-labelledby="overview-title" className="overview">
      <header className="page-header">
        <h1 id="overview-title" className="page-header__title">
          {location ? t('overview.titleFor', { name: location.name }) : t('overview.title')}
        </h1>
      </header>
      {locations.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : locations.isError ? (
        <StateMessage
          kind="error"
          title={t('locations.loadError')}
          hint={problemMessage(t, locations.error)}
          onRetry={() => void locations.refetch()}
        />
      ) : locations.data.length === 0 ? (
        <div className="card state">
          <p className="state__title">{t('locations.empty')}</p>
          <p className="state__hint">{t('overview.emptyHint')}</p>
          <Link to="/locations/new" className="btn btn--primary">
            {t('locations.startWizard')}
          </Link>
        </div>
      ) : (
        <>
          <OverviewToolbar
            locations={locations.data}
            locationId={locationId}
            period={period}
            view={view}
            onLocationChange={(id) => go(id, search)}
            onPeriodChange={(p) => go(locationId, { ...search, period: p })}
            onViewChange={(v) => go(locationId, { ...search, view: v })}
          />
          {locationId === undefined ? (
            <AllLocationsOverview locations={locations.data} period={period} view={view} search={search} />
          ) : location ? (
            <LocationOverview key={location.id} location={location} period={period} view={view} />
          ) : (
            <StateMessage kind="error" title={t('error.network.not_found')} hint={<Link to="/overview">{t('overview.backToAll')}</Link>} />
          )}
        </>
      )}
    </section>
  );
}
