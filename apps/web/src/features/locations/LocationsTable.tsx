import type { Network } from '@palisade/contracts';
import { Link } from '@tanstack/react-router';
import { Badge } from '@/components/Badge';
import { useTranslation } from '@/i18n/use-translation';
import { PendingPeersNote } from './PendingPeersNote';

export function LocationsTable({ locations }: { locations: readonly Network[] }) {
  const { t } = useTranslation();
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t('locations.name')}</th>
            <th scope="col" className="col-md">
              {t('locations.address')}
            </th>
            <th scope="col" className="col-md">
              {t('locations.col.endpoint')}
            </th>
            <th scope="col" className="col-lg">
              {t('locations.allowedGroups')}
            </th>
            <th scope="col">{t('locations.col.security')}</th>
          </tr>
        </thead>
        <tbody>
          {locations.map((n) => (
            <tr key={n.id}>
              <td>
                <Link to="/locations/$id" params={{ id: String(n.id) }} className="location-cell__name">
                  {n.name}
                </Link>
                {n.pending_peers ? <PendingPeersNote location={n} /> : null}
              </td>
              <td className="mono col-md">{n.address.join(', ')}</td>
              <td className="mono col-md">
                {n.endpoint}:{n.port}
              </td>
              <td className="col-lg groups-cell">{n.allowed_groups.length ? n.allowed_groups.join(', ') : t('locations.allUsers')}</td>
              <td>
                {n.mfa_enabled ? (
                  <span className="mfa-cell">
                    <Badge tone="primary">{t('locations.mfa.required')}</Badge>
                  </span>
                ) : (
                  <span className="muted">{t('locations.mfa.notRequired')}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
