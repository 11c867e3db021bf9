import type { NetworkDevice, PendingNetworkDevice } from '@palisade/contracts';
import { Menu } from '@/components/Menu';
import { DeviceStatus } from '@/features/devices/DeviceStatus';
import { formatDate } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { PendingDeviceRow } from './PendingDeviceRow';

export type RowAction = 'config' | 'edit' | 'token' | 'delete';

interface NetworkDevicesTableProps {
  devices: readonly NetworkDevice[];
  /** Announced with a CLI token, not enrolled yet: shown first. */
  pending: readonly PendingNetworkDevice[];
  isFetching: boolean;
  onAction: (action: RowAction, device: NetworkDevice) => void;
  onDeletePending: (device: PendingNetworkDevice) => void;
}

/** Spec §2 columns (name, location, assigned IP, description, added by, added at) and the live status; name, location, status and IP stay on phones. */
export function NetworkDevicesTable({ devices, pending, isFetching, onAction, onDeletePending }: NetworkDevicesTableProps) {
  const { t, language } = useTranslation();
  return (
    <div className="table-wrap" aria-busy={isFetching || undefined}>
      <table className={isFetching ? 'table table--stale' : 'table'}>
        <thead>
          <tr>
            <th scope="col">{t('devices.name')}</th>
            <th scope="col">{t('devices.location')}</th>
            <th scope="col">{t('devices.status')}</th>
            <th scope="col">{t('networkDevices.assignedIp')}</th>
            <th scope="col" className="col-lg">
              {t('networkDevices.description')}
            </th>
            <th scope="col" className="col-md">
              {t('networkDevices.addedBy')}
            </th>
            <th scope="col" className="col-lg">
              {t('networkDevices.addedAt')}
            </th>
            <th scope="col" className="col-actions">
              <span className="visually-hidden">{t('common.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {pending.map((p) => (
            <PendingDeviceRow key={`pending-${p.id}`} device={p} onDelete={() => onDeletePending(p)} />
          ))}
          {devices.map((d) => (
            <tr key={d.id}>
              <td>
                <strong>{d.name}</strong>
              </td>
              <td>{d.location_name}</td>
              <td>
                <DeviceStatus connection={d} />
              </td>
              <td className="mono">{d.assigned_ips.join(', ')}</td>
              <td className="col-lg muted">{d.description ?? ''}</td>
              <td className="col-md">{d.added_by}</td>
              <td className="col-lg">{formatDate(language, d.added_date)}</td>
              <td className="col-actions">
                <Menu
                  label={t('devices.actionsFor', { name: d.name })}
                  items={[
                    { label: t('devices.showConfig'), onSelect: () => onAction('config', d) },
                    { label: t('common.edit'), onSelect: () => onAction('edit', d) },
                    { label: t('networkDevices.generateToken'), onSelect: () => onAction('token', d) },
                    { label: t('common.delete'), onSelect: () => onAction('delete', d), isDanger: true },
                  ]}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
