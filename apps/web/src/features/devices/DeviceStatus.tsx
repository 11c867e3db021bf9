import { Badge } from '@/components/Badge';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';

interface Connection {
  is_active: boolean;
  last_connected_at?: string | undefined;
}

/** Live status from the gateway stats: connected (green), seen before (gold, with when), never seen (grey). */
export function DeviceStatus({ connection }: { connection: Connection }) {
  const { t, language } = useTranslation();
  if (connection.is_active) return <Badge tone="success">{t('devices.status.connected')}</Badge>;
  if (connection.last_connected_at) {
    return <Badge tone="warning">{t('devices.status.lastSeen', { time: formatDateTime(language, connection.last_connected_at) })}</Badge>;
  }
  return <Badge>{t('devices.status.never')}</Badge>;
}
