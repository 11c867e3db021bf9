import type { EnterpriseSettings } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { usePatchEnterpriseSettings } from './enterprise.mutations';
import { enterpriseSettingsQueryOptions } from './enterprise.queries';
import './enterprise.css';

const SWITCHES = [
  ['admin_device_management', 'enterprise.deviceManagement', 'enterprise.deviceManagementHint'],
  ['disable_all_traffic', 'enterprise.allTraffic', 'enterprise.allTrafficHint'],
  ['disable_manual_config', 'enterprise.manualConfig', 'enterprise.manualConfigHint'],
] as const satisfies readonly (readonly [keyof EnterpriseSettings, MessageKey, MessageKey])[];

/** Settings → Enterprise features: each switch is saved as soon as it changes (PATCH). */
export function EnterpriseSettingsCard() {
  const { t } = useTranslation();
  const settings = useQuery(enterpriseSettingsQueryOptions);
  const patch = usePatchEnterpriseSettings();
  // The switch moves at once; a failed save puts it back to the server's value.
  const [local, setLocal] = useState<EnterpriseSettings | undefined>(undefined);
  const values = local ?? settings.data;

  const onChange = (name: keyof EnterpriseSettings, value: boolean) => {
    if (values) setLocal({ ...values, [name]: value });
    patch.mutate(
      { [name]: value },
      {
        onSuccess: () => pushToast({ id: 'enterprise-saved', kind: 'success', message: t('settings.saved') }),
        onError: (error) => {
          setLocal(undefined);
          pushToast({ id: 'enterprise-save-error', kind: 'error', message: problemMessage(t, error) });
        },
      },
    );
  };

  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('enterprise.title')}</h2>
      </div>
      {settings.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : settings.isError || !values ? (
        <StateMessage kind="error" title={t('enterprise.loadError')} onRetry={() => void settings.refetch()} />
      ) : (
        <fieldset className="card__body check-list settings__modules">
          <legend className="visually-hidden">{t('enterprise.title')}</legend>
          <p className="field__hint">{t('enterprise.hint')}</p>
          {SWITCHES.map(([name, label, hint]) => (
            <CheckboxField
              key={name}
              name={name}
              label={t(label)}
              hint={t(hint)}
              checked={values[name]}
              disabled={patch.isPending}
              onCheckedChange={(v) => onChange(name, v)}
            />
          ))}
        </fieldset>
      )}
    </div>
  );
}
