import { useQuery } from '@tanstack/react-query';
import { StateMessage } from '@/components/StateMessage';
import { EnterpriseSettingsCard } from '@/features/enterprise/EnterpriseSettingsCard';
import { GatewayNotificationsCard } from '@/features/gateways/GatewayNotificationsCard';
import { useTranslation } from '@/i18n/use-translation';
import { SettingsForm } from './SettingsForm';
import { settingsQueryOptions } from './settings.queries';

export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery(settingsQueryOptions);
  return (
    <section aria-labelledby="settings-title">
      <header className="page-header">
        <h1 id="settings-title" className="page-header__title">
          {t('settings.title')}
        </h1>
      </header>
      {settings.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : settings.isError ? (
        <StateMessage kind="error" title={t('settings.loadError')} onRetry={() => void settings.refetch()} />
      ) : (
        <SettingsForm key={settings.dataUpdatedAt} settings={settings.data} />
      )}
      <div className="settings settings--enterprise">
        <EnterpriseSettingsCard />
        <GatewayNotificationsCard />
      </div>
    </section>
  );
}
