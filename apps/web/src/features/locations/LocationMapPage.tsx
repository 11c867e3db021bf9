import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { MapDevicesStep } from './MapDevicesStep';
import { locationQueryOptions, pendingPeersQueryOptions } from './locations.queries';
import '@/features/devices/devices.css';
import '@/features/users/users.css';
import './locations.css';

/** The import's "Map devices" step, resumed: the peers a wizard left unmapped wait with the location. */
export function LocationMapPage() {
  const { t } = useTranslation();
  const id = Number(useParams({ from: '/_authed/_admin/locations/$id_/map' }).id);
  const navigate = useNavigate();
  const location = useQuery(locationQueryOptions(id));
  const peers = useQuery(pendingPeersQueryOptions(id));
  const toList = () => void navigate({ to: '/locations' });

  if (location.isPending || peers.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (location.isError || peers.isError) {
    const error = location.error ?? peers.error;
    return (
      <StateMessage
        kind="error"
        title={t('wizard.map.loadError')}
        hint={problemMessage(t, error)}
        onRetry={() => void Promise.all([location.refetch(), peers.refetch()])}
      />
    );
  }
  return (
    <section aria-labelledby="map-title" className="wizard">
      <header className="page-header">
        <div>
          <Link to="/locations" className="btn btn--link">
            ← {t('locations.back')}
          </Link>
          <h1 id="map-title" className="page-header__title">
            {t('wizard.map.resumeTitle', { name: location.data.name })}
          </h1>
        </div>
      </header>
      {peers.data.length === 0 ? (
        <div className="card">
          <StateMessage kind="empty" title={t('wizard.map.nothingPending', { name: location.data.name })} />
        </div>
      ) : (
        <MapDevicesStep network={location.data} peers={peers.data} onDone={toList} onBack={toList} onLater={toList} />
      )}
    </section>
  );
}
