import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@/i18n/use-translation';
import { describeExceeded } from './licence-view';
import { enterpriseInfoQueryOptions } from './licence.queries';

/**
 * Whether the API refuses enterprise changes now (docs/licensing.md): usage over the limits that
 * apply. The enterprise screens disable their change buttons while it is true; reads still work.
 */
export function useEnterpriseLocked(): boolean {
  const info = useQuery(enterpriseInfoQueryOptions);
  return info.data !== undefined && !info.data.enterprise_enabled;
}

/** The upgrade prompt on an enterprise screen (ACL, activity-log streaming, enterprise settings). */
export function UpgradePrompt() {
  const { t } = useTranslation();
  const info = useQuery(enterpriseInfoQueryOptions);
  if (!info.data || info.data.enterprise_enabled) return null;
  const exceeded = describeExceeded(info.data, t);
  return (
    <div className="banner banner--warning upgrade-prompt" role="status" aria-labelledby="upgrade-prompt-title">
      <p id="upgrade-prompt-title">
        <strong>{t('licence.prompt.title')}</strong>
      </p>
      <p>{t(info.data.status === 'limits_exceeded' ? 'licence.prompt.overLicence' : 'licence.prompt.overFree', { exceeded })}</p>
      <p>{t('licence.prompt.action')}</p>
    </div>
  );
}
