import type { NetworkStats } from '@palisade/contracts';
import { formatNumber } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';

/** Active users and network devices: connected now, and active during the period. */
export function StatsFigures({ stats }: { stats: NetworkStats }) {
  const { t, language } = useTranslation();
  const n = (v: number) => formatNumber(language, v);
  const figures = [
    [t('overview.activeUsers'), stats.current_active_users, stats.active_users],
    [t('overview.activeUserDevices'), stats.current_active_user_devices, stats.active_user_devices],
    [t('overview.activeNetworkDevices'), stats.current_active_network_devices, stats.active_network_devices],
  ] as const;
  return (
    <dl className="stats-figures">
      {figures.map(([label, now, period]) => (
        <div key={label} className="stats-figures__item">
          <dt>{label}</dt>
          <dd>
            <span className="stats-figures__value">{n(now)}</span>
            <span className="stats-figures__sub">{t('overview.inPeriod', { count: period })}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
