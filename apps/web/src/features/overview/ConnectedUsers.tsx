import type { DeviceStats, UserStats } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import type { OverviewView } from './period';
import { formatBytes } from './usage-series';

/** Spec §2 Connected users overview: users (with their devices) and network devices active in the period. */
export function ConnectedUsers({ users, view }: { users: readonly UserStats[]; view: OverviewView }) {
  return view === 'grid' ? (
    <ul className="user-grid">
      {users.map((u) => (
        <li key={u.user.id} className="card user-card">
          <UserHeading stats={u} />
          <ul className="user-card__devices">
            {u.devices.map((d) => (
              <li key={d.id}>
                <DeviceLine device={d} />
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  ) : (
    <ConnectedTable rows={users.flatMap((u) => u.devices.map((d) => ({ owner: fullName(u), device: d })))} />
  );
}

export function ConnectedTable({ rows }: { rows: readonly { owner: string; device: DeviceStats }[] }) {
  const { t, language } = useTranslation();
  return (
    <div className="card table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t('overview.col.owner')}</th>
            <th scope="col">{t('overview.col.device')}</th>
            <th scope="col" className="col-md">
              {t('overview.col.ip')}
            </th>
            <th scope="col" className="col-lg">
              {t('overview.col.publicIp')}
            </th>
            <th scope="col" className="col-lg">
              {t('overview.col.handshake')}
            </th>
            <th scope="col" className="col-md">
              {t('overview.col.transfer')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ owner, device }) => (
            <tr key={device.id}>
              <td>{owner}</td>
              <td>
                {device.name} <ConnectedBadge device={device} />
              </td>
              <td className="col-md mono">{device.assigned_ips.join(', ')}</td>
              <td className="col-lg mono">{device.public_ip ?? '—'}</td>
              <td className="col-lg">{formatDateTime(language, device.latest_handshake) || '—'}</td>
              <td className="col-md">
                {t('overview.inOut', { in: formatBytes(language, device.download), out: formatBytes(language, device.upload) })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const fullName = (u: UserStats) => `${u.user.first_name} ${u.user.last_name}`.trim() || u.user.username;

function UserHeading({ stats }: { stats: UserStats }) {
  const { t, language } = useTranslation();
  return (
    <div className="user-card__header">
      <span className="avatar" aria-hidden="true">
        {(stats.user.first_name[0] ?? stats.user.username[0] ?? '?').toUpperCase()}
      </span>
      <div className="user-card__who">
        <h3 className="user-card__name">{fullName(stats)}</h3>
        <span className="muted">{stats.user.username}</span>
      </div>
      <span className="user-card__transfer">
        {t('overview.inOut', { in: formatBytes(language, stats.download), out: formatBytes(language, stats.upload) })}
      </span>
    </div>
  );
}

function DeviceLine({ device }: { device: DeviceStats }) {
  const { t, language } = useTranslation();
  return (
    <div className="device-line">
      <span className="device-line__name">
        {device.name} <ConnectedBadge device={device} />
      </span>
      <span className="mono muted">{device.assigned_ips.join(', ')}</span>
      <span className="muted">
        {device.connected && device.connected_at
          ? t('overview.connectedSince', { time: formatDateTime(language, device.connected_at) })
          : t('overview.lastHandshake', { time: formatDateTime(language, device.latest_handshake) || '—' })}
      </span>
    </div>
  );
}

function ConnectedBadge({ device }: { device: DeviceStats }) {
  const { t } = useTranslation();
  return device.connected ? <Badge tone="success">{t('overview.connected')}</Badge> : <Badge>{t('overview.idle')}</Badge>;
}
