import type { EnterpriseSettings } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { StateMessage } from '@/components/StateMessage';
import { pushToast } from '@/components/toast-store';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { UpgradePrompt, useEnterpriseLocked } from '@/features/licence/UpgradePrompt';
import { SettingsFormActions, useSettingsLeaveGuard } from '@/features/settings/SettingsFormActions';
import { usePatchEnterpriseSettings } from './enterprise.mutations';
import { enterpriseSettingsQueryOptions } from './enterprise.queries';
import './enterprise.css';

const SWITCHES = [
  ['admin_device_management', 'enterprise.deviceManagement', 'enterprise.deviceManagementHint'],
  ['disable_all_traffic', 'enterprise.allTraffic', 'enterprise.allTrafficHint'],
  ['disable_manual_config', 'enterprise.manualConfig', 'enterprise.manualConfigHint'],
] as const satisfies readonly (readonly [keyof EnterpriseSettings, MessageKey, MessageKey])[];

/** Settings › Enterprise features: one form with its own Save, like every settings tab (PATCH of the changed switches). */
export function EnterpriseSettingsCard() {
  const { t } = useTranslation();
  const settings = useQuery(enterpriseSettingsQueryOptions);
  // Owned here, not by the form: a save renews the data, which remounts the form with the saved values.
  const patch = usePatchEnterpriseSettings();
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card__header">
        <h2 id={titleId} className="card__title">
          {t('enterprise.title')}
        </h2>
      </div>
      {settings.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : settings.isError ? (
        <StateMessage kind="error" title={t('enterprise.loadError')} onRetry={() => void settings.refetch()} />
      ) : (
        <EnterpriseSettingsForm key={settings.dataUpdatedAt} saved={settings.data} patch={patch} />
      )}
    </section>
  );
}

function EnterpriseSettingsForm({ saved, patch }: { saved: EnterpriseSettings; patch: ReturnType<typeof usePatchEnterpriseSettings> }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<EnterpriseSettings>(saved);
  const [error, setError] = useState<unknown>(undefined);
  // Without a licence above the free limits the API refuses changes: the switches show the saved state only.
  const locked = useEnterpriseLocked();
  const changed = SWITCHES.map(([name]) => name).filter((name) => values[name] !== saved[name]);
  const isDirty = changed.length > 0;
  useSettingsLeaveGuard(isDirty);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    patch.mutate(Object.fromEntries(changed.map((name) => [name, values[name]])), {
      onSuccess: () => pushToast({ id: 'enterprise-saved', kind: 'success', message: t('settings.saved') }),
      onError: setError,
    });
  };

  return (
    <form className="card__body settings__form" onSubmit={onSubmit} noValidate aria-label={t('enterprise.title')}>
      <fieldset className="check-list settings__modules">
        <legend className="visually-hidden">{t('enterprise.title')}</legend>
        <p className="field__hint">{t('enterprise.hint')}</p>
        <UpgradePrompt />
        {SWITCHES.map(([name, label, hint]) => (
          <CheckboxField
            key={name}
            name={name}
            label={t(label)}
            hint={t(hint)}
            checked={values[name]}
            disabled={locked}
            onCheckedChange={(v) => {
              setValues((current) => ({ ...current, [name]: v }));
              setError(undefined);
            }}
          />
        ))}
      </fieldset>
      <SettingsFormActions isDirty={isDirty} isSaving={patch.isPending} error={error} onReset={() => setValues(saved)} />
    </form>
  );
}
