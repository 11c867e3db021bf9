import type { Device, VpnSession } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { Menu, type MenuItem } from '@/components/Menu';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';
import { DeviceStatus } from './DeviceStatus';
import { shortKey } from './config-text';
import { activeSession } from './vpn-sessions.api';

/** MFA-protected locations (docs/mfa.md): the owner connects through a VPN session. */
export interface MfaConnect {
  sessions: VpnSession[] | undefined;
  onConnect: (location: { id: number; name: string }) => void;
  onDisconnect: (session: VpnSession) => void;
}

interface DeviceItemProps {
  device: Device;
  canManage: boolean;
  canViewConfig: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onShowConfig: () => void;
  /** Given only to the device's owner: Connect / Disconnect per MFA-protected location. */
  mfa?: MfaConnect | undefined;
}

export function DeviceItem({ device, canManage, canViewConfig, onEdit, onDelete, onShowConfig, mfa }: DeviceItemProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const items: MenuItem[] = [
    ...(canViewConfig && device.networks?.length ? [{ label: t('devices.showConfig'), onSelect: onShowConfig }] : []),
    ...(canManage
      ? [
          { label: t('common.edit'), onSelect: onEdit },
          { label: t('common.delete'), onSelect: onDelete, isDanger: true },
        ]
      : []),
  ];
  return (
    <li className="device-item" aria-label={device.name}>
      <div className="device-item__main">
        <span className="device-item__title">
          <span className="device-item__name">{device.name}</span>
          <DeviceStatus connection={device} />
        </span>
        <span className="device-item__key">
          <span title={device.wireguard_pubkey}>{shortKey(device.wireguard_pubkey)}</span>
          <button
            type="button"
            className="icon-btn icon-btn--sm"
            onClick={() => void copy(device.wireguard_pubkey)}
            aria-label={t('devices.copyKey', { name: device.name })}
          >
            <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M9 9h10v10H9zM5 15V5h10" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
            </svg>
          </button>
        </span>
        <ConnectionFacts device={device} />
        <ul className="device-item__networks">
          {(device.networks ?? []).map((n) => (
            <li key={n.network_id}>
              <strong>{n.network_name}</strong> {n.device_wireguard_ips.join(', ')}
              {n.is_active ? (
                <>
                  {' '}
                  <Badge tone="success">{t('devices.status.connected')}</Badge>
                </>
              ) : null}
              {n.mfa_enabled ? <MfaControls device={device} location={{ id: n.network_id, name: n.network_name }} mfa={mfa} /> : null}
            </li>
          ))}
          {device.networks?.length ? null : <li>{t('devices.noLocations')}</li>}
        </ul>
      </div>
      {items.length ? <Menu label={t('devices.actionsFor', { name: device.name })} items={items} /> : null}
    </li>
  );
}

function MfaControls({ device, location, mfa }: { device: Device; location: { id: number; name: string }; mfa: MfaConnect | undefined }) {
  const { t } = useTranslation();
  const session = activeSession(mfa?.sessions, device.id, location.id);
  return (
    <>
      {' '}
      <Badge tone={session ? 'success' : 'warning'}>{session ? t('vpnSessions.authorised') : t('vpnSessions.mfaRequired')}</Badge>
      {mfa && session ? (
        <Button size="sm" onClick={() => mfa.onDisconnect(session)}>
          {t('vpnSessions.disconnect')}
        </Button>
      ) : null}
      {mfa && !session && mfa.sessions ? (
        <Button size="sm" variant="primary" onClick={() => mfa.onConnect(location)}>
          {t('vpnSessions.connect')}
        </Button>
      ) : null}
    </>
  );
}

/** Spec §3 Device: public IP, last location and connection date, once a gateway has seen the device. */
function ConnectionFacts({ device }: { device: Device }) {
  const { t, language } = useTranslation();
  if (!device.last_connected_at) return null;
  return (
    <dl className="device-item__facts">
      {device.last_connected_ip ? (
        <div>
          <dt>{t('devices.publicIp')}</dt>
          <dd className="mono">{device.last_connected_ip}</dd>
        </div>
      ) : null}
      {device.last_connected_location ? (
        <div>
          <dt>{t('devices.lastLocation')}</dt>
          <dd>{device.last_connected_location}</dd>
        </div>
      ) : null}
      {device.connected_at ? (
        <div>
          <dt>{device.is_active ? t('devices.connectedSince') : t('devices.connectedAt')}</dt>
          <dd>{formatDateTime(language, device.connected_at)}</dd>
        </div>
      ) : null}
    </dl>
  );
}
