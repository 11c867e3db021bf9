import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { LocationsTable } from './LocationsTable';
import { locationsQueryOptions } from './locations.queries';
import '@/features/users/users.css';
import './locations.css';

export function LocationsPage() {
  const { t } = useTranslation();
  const locations = useQuery(locationsQueryOptions);
  return (
    <section aria-labelledby="locations-title">
      <header className="page-header">
        <h1 id="locations-title" className="page-header__title">
          {t('locations.title')}
        </h1>
        {locations.data?.length ? (
          <div className="page-header__actions">
            <Link to="/locations/new" className="btn btn--primary">
              {t('locations.add')}
            </Link>
          </div>
        ) : null}
      </header>
      <div className="card">
        {locations.isPending ? (
          <StateMessage kind="loading" title={t('common.loading')} />
        ) : locations.isError ? (
          <StateMessage kind="error" title={t('locations.loadError')} onRetry={() => void locations.refetch()} />
        ) : locations.data.length === 0 ? (
          <div className="state">
            <p className="state__title">{t('locations.empty')}</p>
            <p className="state__hint">{t('locations.emptyHint')}</p>
            <Link to="/locations/new" className="btn btn--primary">
              {t('locations.startWizard')}
            </Link>
          </div>
        ) : (
          <LocationsTable locations={locations.data} />
        )}
      </div>
    </section>
  );
}
