import { getRouteApi, Link } from '@tanstack/react-router';
import { EnterpriseSettingsCard } from '@/features/enterprise/EnterpriseSettingsCard';
import { GatewayNotificationsCard } from '@/features/gateways/GatewayNotificationsCard';
import { useTranslation } from '@/i18n/use-translation';
import { ActivityLogStreamingTab } from './ActivityLogStreamingTab';
import { GlobalSettingsTab } from './GlobalSettingsTab';
import { LdapSettingsTab } from './LdapSettingsTab';
import { OpenIdProviderTab } from './OpenIdProviderTab';
import { DEFAULT_SETTINGS_TAB, SETTINGS_TAB_LABELS, SETTINGS_TABS, type SettingsTab } from './settings-tabs';
import { SmtpSettingsTab } from './SmtpSettingsTab';
import './settings.css';

const route = getRouteApi('/_authed/_admin/settings');

/**
 * Settings in tabs (spec §2). Every tab that can change something is one form with its own Save,
 * enabled once something changed; leaving a changed tab (another tab, another page) asks first.
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const tab = route.useSearch().tab ?? DEFAULT_SETTINGS_TAB;
  return (
    <section aria-labelledby="settings-title">
      <header className="page-header">
        <h1 id="settings-title" className="page-header__title">
          {t('settings.title')}
        </h1>
      </header>
      <nav className="settings-tabs" aria-label={t('settings.tabs')}>
        {SETTINGS_TABS.map((id) => (
          <Link
            key={id}
            to="/settings"
            search={id === DEFAULT_SETTINGS_TAB ? {} : { tab: id }}
            className="settings-tabs__tab"
            aria-current={id === tab ? 'page' : undefined}
            activeOptions={{ exact: true, includeSearch: true }}
          >
            {t(SETTINGS_TAB_LABELS[id])}
          </Link>
        ))}
      </nav>
      <div className="settings">
        <SettingsTabPanel tab={tab} />
      </div>
    </section>
  );
}

function SettingsTabPanel({ tab }: { tab: SettingsTab }) {
  switch (tab) {
    case 'smtp':
      return <SmtpSettingsTab />;
    case 'global':
      return <GlobalSettingsTab />;
    case 'enterprise':
      return <EnterpriseSettingsCard />;
    case 'notifications':
      return <GatewayNotificationsCard />;
    case 'activity':
      return <ActivityLogStreamingTab />;
    case 'ldap':
      return <LdapSettingsTab />;
    case 'openid':
      return <OpenIdProviderTab />;
  }
}
