import { Link } from '@tanstack/react-router';
import { UpgradePrompt } from '@/features/licence/UpgradePrompt';
import { useTranslation } from '@/i18n/use-translation';
import '@/features/settings/settings.css';

/** Spec §2 ACL: the Rules and Aliases tabs of one screen, and the upgrade prompt when a licence is needed (docs/licensing.md). */
export function AclTabs() {
  const { t } = useTranslation();
  const options = { exact: true, includeSearch: false } as const;
  return (
    <>
      <nav className="settings-tabs" aria-label={t('acl.tabs')}>
        <Link to="/acl" className="settings-tabs__tab" activeOptions={options} activeProps={{ 'aria-current': 'page' }}>
          {t('acl.tab.rules')}
        </Link>
        <Link to="/acl/aliases" className="settings-tabs__tab" activeOptions={options} activeProps={{ 'aria-current': 'page' }}>
          {t('acl.tab.aliases')}
        </Link>
      </nav>
      <UpgradePrompt />
    </>
  );
}
