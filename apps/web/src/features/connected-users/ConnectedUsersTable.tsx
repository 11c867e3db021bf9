import { Badge } from '@/components/Badge';
import { formatBytes } from '@/features/overview/usage-series';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import type { ConnectedRow } from './connected-rows';

/** Spec §2 Connected users: who, which device, where, from which public IP, since when, how much traffic. */
export function ConnectedUsersTable({ rows, isFetching }: { rows: readonly ConnectedRow[]; isFetching: boolean }) {
  const { t, language } = useTranslation();
  return (
    <div className="table-wrap" aria-busy={isFetching || undefined}>
      <table className={isFetching ? 'table table--stale' : 'table'}>
        <thead>
          <tr>
            <th scope="col">{t('overview.col.owner')}</th>
            <th scope="col">{t('overview.col.device')}</th>
            <th scope="col">{t('devices.location')}</th>
            <th scope="col" className="col-md">
              {t('overview.col.publicIp')}
            </th>
            <th scope="col" className="col-lg">
              {t('overview.col.ip')}
            </th>
            <th scope="col" className="col-md">
              {t('connectedUsers.col.since')}
            </th>
            <th scope="col" className="col-lg">
              {t('overview.col.transfer')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, owner, username, device }) => (
            <tr key={key}>
              <td>
                {owner ?? <span className="muted">{t('connectedUsers.networkDevice')}</span>}
                {username && username !== owner ? <div className="muted">{username}</div> : null}
              </td>
              <td>
                {device.name}{' '}
                {device.connected ? (
                  <Badge tone="success">{t('overview.connected')}</Badge>
                ) : (
                  <Badge tone="warning">{t('overview.idle')}</Badge>
                )}
              </td>
              <td>{device.location_name}</td>
              <td className="col-md mono">{device.public_ip ?? '—'}</td>
              <td className="col-lg mono">{device.assigned_ips.join(', ')}</td>
              <td className="col-md">
                {device.connected && device.connected_at
                  ? formatDateTime(language, device.connected_at)
                  : t('overview.lastHandshake', { time: formatDateTime(language, device.latest_handshake) || '—' })}
              </td>
              <td className="col-lg">
                {t('overview.inOut', { in: formatBytes(language, device.download), out: formatBytes(language, device.upload) })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
