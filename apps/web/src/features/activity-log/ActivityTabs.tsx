import { Link } from '@tanstack/react-router';
import { useTranslation } from '@/i18n/use-translation';

/** The log (searchable history) and the live stream, as two tabs of one screen. */
export function ActivityTabs() {
  const { t } = useTranslation();
  const options = { exact: true, includeSearch: false } as const;
  return (
    <nav className="settings-tabs activity-tabs" aria-label={t('activity.tabs')}>
      <Link to="/activity-log" className="settings-tabs__tab" activeOptions={options} activeProps={{ 'aria-current': 'page' }}>
        {t('activity.tab.log')}
      </Link>
      <Link to="/activity-log/live" className="settings-tabs__tab" activeOptions={options} activeProps={{ 'aria-current': 'page' }}>
        {t('activity.tab.live')}
      </Link>
    </nav>
  );
}
