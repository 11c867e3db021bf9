import type { PendingNetworkDevice } from '@palisade/contracts';
import { Badge } from '@/components/Badge';
import { Menu } from '@/components/Menu';
import { formatDate, formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';

/** A device announced with a CLI token: listed until its client enrolls; deleting it revokes the token. */
export function PendingDeviceRow({ device, onDelete }: { device: PendingNetworkDevice; onDelete: () => void }) {
  const { t, language } = useTranslation();
  const expires = formatDateTime(language, device.expires_at);
  return (
    <tr className="table__row--pending">
      <td>
        <strong>{device.name}</strong>
      </td>
      <td>{device.location_name}</td>
      <td>
        {device.is_expired ? (
          <Badge tone="error">{t('networkDevices.pending.expired', { date: expires })}</Badge>
        ) : (
          <Badge tone="primary">{t('networkDevices.pending.status', { date: expires })}</Badge>
        )}
      </td>
      <td className="mono">{device.assigned_ips.join(', ') || t('networkDevices.pending.ipOnEnrollment')}</td>
      <td className="col-lg muted">{device.description ?? ''}</td>
      <td className="col-md">{device.added_by}</td>
      <td className="col-lg">{formatDate(language, device.added_date)}</td>
      <td className="col-actions">
        <Menu
          label={t('devices.actionsFor', { name: device.name })}
          items={[{ label: t('common.delete'), onSelect: onDelete, isDanger: true }]}
        />
      </td>
    </tr>
  );
}
