import type { NetworkDevice } from '@palisade/contracts';
import { Menu } from '@/components/Menu';
import { formatDate } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';

export type RowAction = 'config' | 'edit' | 'token' | 'delete';

interface NetworkDevicesTableProps {
  devices: readonly NetworkDevice[];
  isFetching: boolean;
  onAction: (action: RowAction, device: NetworkDevice) => void;
}

/** Spec §2 columns: name, location, assigned IP, description, added by, added at. */
export function NetworkDevicesTable({ devices, isFetching, onAction }: NetworkDevicesTableProps) {
  const { t, language } = useTranslation();
  return (
    <div className="table-wrap" aria-busy={isFetching || undefined}>
      <table className={isFetching ? 'table table--stale' : 'table'}>
        <thead>
          <tr>
            <th scope="col">{t('devices.name')}</th>
            <th scope="col" className="col-md">
              {t('devices.location')}
            </th>
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
          {devices.map((d) => (
            <tr key={d.id}>
              <td>
                <strong>{d.name}</strong>
              </td>
              <td className="col-md">{d.location_name}</td>
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
