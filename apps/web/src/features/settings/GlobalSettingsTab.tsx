import { type NetworkView, type Settings, UpdateSettingsBodySchema } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { useZodForm } from '@/lib/use-zod-form';
import { LicenceCard } from '@/features/licence/LicenceCard';
import { ActivityLogSettingsCard } from './ActivityLogSettingsCard';
import { useRestoreBranding } from './branding.mutations';
import { LogoUploadField } from './LogoUploadField';
import { SettingsFormActions, useSettingsLeaveGuard } from './SettingsFormActions';
import { useUpdateSettings } from './settings.mutations';
import { settingsQueryOptions } from './settings.queries';

/** Module switches: each hides its screens (its API routes answer 404 `module.disabled`). */
const MODULES = [
  ['wireguard_enabled', 'settings.module.wireguard', 'settings.module.wireguardHint'],
  ['webhooks_enabled', 'settings.module.webhooks', 'settings.module.webhooksHint'],
  ['worker_enabled', 'settings.module.worker', 'settings.module.workerHint'],
  ['openid_enabled', 'settings.module.openid', 'settings.module.openidHint'],
] as const satisfies readonly (readonly [keyof Settings, MessageKey, MessageKey])[];

/** The SMTP and LDAP fields belong to their own tabs: this form neither shows nor sends them. */
type SmtpKey = Extract<keyof Settings, `smtp_${string}` | `ldap_${string}`>;

/** The form keeps the retention days as typed; the body gets a number (not a number: the schema's `number` error). */
type GlobalFormValues = Omit<Settings, 'activity_log_retention_days' | SmtpKey> & { activity_log_retention_days: string };

const formValues = (settings: Settings): GlobalFormValues => {
  const global = Object.fromEntries(
    Object.entries(settings).filter(([key]) => !key.startsWith('smtp_') && !key.startsWith('ldap_')),
  ) as Omit<Settings, SmtpKey>;
  return { ...global, activity_log_retention_days: String(settings.activity_log_retention_days) };
};

const toBody = (values: GlobalFormValues) => {
  const days = values.activity_log_retention_days.trim();
  return { ...values, activity_log_retention_days: /^\d+$/.test(days) ? Number(days) : Number.NaN };
};

const isSame = (a: unknown, b: unknown) => (Array.isArray(a) && Array.isArray(b) ? a.join('\n') === b.join('\n') : a === b);

/** Settings › Global: instance branding, module visibility, and what is not available yet. */
export function GlobalSettingsTab() {
  const { t } = useTranslation();
  const settings = useQuery(settingsQueryOptions);
  // Owned here, not by the form: a save renews the data, which remounts the form with the saved values.
  const update = useUpdateSettings();
  if (settings.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (settings.isError) return <StateMessage kind="error" title={t('settings.loadError')} onRetry={() => void settings.refetch()} />;
  return <GlobalSettingsForm key={settings.dataUpdatedAt} settings={settings.data} update={update} />;
}

function GlobalSettingsForm({ settings, update }: { settings: Settings; update: ReturnType<typeof useUpdateSettings> }) {
  const { t } = useTranslation();
  const form = useZodForm(UpdateSettingsBodySchema, formValues(settings));
  const saved = formValues(settings);
  const isDirty = (Object.keys(saved) as (keyof GlobalFormValues)[]).some((name) => !isSame(form.values[name], saved[name]));
  useSettingsLeaveGuard(isDirty);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(toBody(form.values));
    if (!body) return;
    update.mutate(body, {
      onSuccess: () => pushToast({ id: 'settings-saved', kind: 'success', message: t('settings.saved') }),
      onError: (error) => form.applyServerError(error),
    });
  };

  const text = (name: 'instance_name' | 'main_logo_url' | 'nav_logo_url') => ({
    name,
    value: form.values[name],
    onValueChange: (v: string) => form.setValue(name, v),
    error: form.errors[name],
  });

  return (
    <form className="settings" onSubmit={onSubmit} noValidate aria-label={t('settings.tab.global')}>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('settings.branding')}</h2>
          <RestoreBrandingButton />
        </div>
        <div className="card__body form-grid form-grid--2">
          <TextField label={t('settings.instanceName')} className="form-grid__wide" {...text('instance_name')} />
          <TextField label={t('settings.mainLogo')} hint={t('settings.logoHint')} isOptional {...text('main_logo_url')} />
          <TextField label={t('settings.navLogo')} hint={t('settings.logoHint')} isOptional {...text('nav_logo_url')} />
          <LogoUploadField kind="main" isDisabled={isDirty} />
          <LogoUploadField kind="nav" isDisabled={isDirty} />
        </div>
      </div>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('settings.networkView')}</h2>
        </div>
        <div className="card__body form-grid form-grid--2">
          <SelectField<NetworkView>
            label={t('settings.networkViewLabel')}
            value={form.values.default_network_view}
            options={[
              { value: 'grid', label: t('overview.view.grid') },
              { value: 'list', label: t('overview.view.list') },
            ]}
            onValueChange={(v) => form.setValue('default_network_view', v)}
          />
          <p className="field__hint form-grid__wide">{t('settings.networkViewHint')}</p>
        </div>
      </div>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('settings.modules')}</h2>
        </div>
        <fieldset className="card__body check-list settings__modules">
          <legend className="visually-hidden">{t('settings.modules')}</legend>
          <p className="field__hint">{t('settings.modulesHint')}</p>
          {MODULES.map(([name, label, hint]) => (
            <CheckboxField
              key={name}
              name={name}
              label={t(label)}
              hint={t(hint)}
              checked={form.values[name]}
              onCheckedChange={(v) => form.setValue(name, v)}
            />
          ))}
        </fieldset>
      </div>
      <ActivityLogSettingsCard
        retentionDays={form.values.activity_log_retention_days}
        onRetentionDaysChange={(v) => form.setValue('activity_log_retention_days', v)}
        egressAllowCidrs={form.values.egress_allow_cidrs}
        onEgressAllowCidrsChange={(v) => form.setValue('egress_allow_cidrs', v)}
        errors={form.errors}
      />
      <LicenceCard />
      <SettingsFormActions
        isDirty={isDirty}
        isSaving={update.isPending}
        error={form.formError}
        onReset={() => form.reset(formValues(settings))}
      />
    </form>
  );
}

/** Spec §7 PUT /settings/{id}: the default instance name and logos, after a confirmation. */
function RestoreBrandingButton() {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const restore = useRestoreBranding();
  // The toasts are the mutation's; a success remounts the form (and closes this dialog with it).
  const onConfirm = () => restore.mutate(undefined, { onSuccess: () => setOpen(false) });
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        {t('settings.restoreBranding')}
      </Button>
      <ConfirmDialog
        title={t('settings.restoreBrandingTitle')}
        isOpen={isOpen}
        onCancel={() => setOpen(false)}
        onConfirm={onConfirm}
        confirmLabel={t('settings.restoreBranding')}
        isDanger
        isPending={restore.isPending}
      >
        <p>{t('settings.restoreBrandingBody')}</p>
      </ConfirmDialog>
    </>
  );
}
