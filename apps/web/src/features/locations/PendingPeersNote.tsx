import type { Network } from '@palisade/contracts';
import { Link } from '@tanstack/react-router';
import { useTranslation } from '@/i18n/use-translation';

/** "N peers waiting to be mapped" with the way back to the import's map step. */
export function PendingPeersNote({ location }: { location: Network }) {
  const { t } = useTranslation();
  const count = location.pending_peers ?? 0;
  if (count === 0) return null;
  return (
    <p className="pending-peers">
      <span>{t('locations.pendingPeers', { count })}</span>{' '}
      <Link to="/locations/$id/map" params={{ id: String(location.id) }} className="btn btn--link">
        {t('locations.resumeMap')}
      </Link>
    </p>
  );
}
