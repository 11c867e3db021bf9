import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { SETTINGS_TAB_LABELS, type SettingsTab } from './settings-tabs';

const WHY: Partial<Record<SettingsTab, MessageKey>> = {
  openid: 'settings.unavailable.openid',
};

/** A tab whose capability Palisade does not have yet: it says so, and offers no form. */
export function UnavailableSettings({ tab }: { tab: SettingsTab }) {
  const { t } = useTranslation();
  const why = WHY[tab];
  return (
    <section className="card" aria-labelledby={`settings-${tab}-title`}>
      <div className="card__header">
        <h2 id={`settings-${tab}-title`} className="card__title">
          {t(SETTINGS_TAB_LABELS[tab])}
        </h2>
      </div>
      <div className="card__body">
        <p className="banner banner--info" role="note">
          <strong>{t('settings.unavailable.title')}</strong> {why ? t(why) : null}
        </p>
      </div>
    </section>
  );
}
