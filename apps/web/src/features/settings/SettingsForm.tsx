import { type Settings, UpdateSettingsBodySchema } from '@palisade/contracts';
import type { FormEvent } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { useUpdateSettings } from './settings.mutations';

const MODULES = [
  ['wireguard_enabled', 'settings.module.wireguard'],
  ['webhooks_enabled', 'settings.module.webhooks'],
  ['worker_enabled', 'settings.module.worker'],
  ['openid_enabled', 'settings.module.openid'],
] as const satisfies readonly (readonly [keyof Settings, MessageKey])[];

/** Global settings: instance branding and module flags (PUT /settings). */
export function SettingsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const update = useUpdateSettings();
  const form = useZodForm(UpdateSettingsBodySchema, { ...settings });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(form.values);
    if (!body) return;
    update.mutate(body, {
      onSuccess: () => pushToast({ id: 'settings-saved', kind: 'success', message: t('settings.saved') }),
      onError: (error) => {
        if (!form.applyServerError(error)) pushToast({ id: 'settings-save-error', kind: 'error', message: problemMessage(t, error) });
      },
    });
  };

  const text = (name: 'instance_name' | 'main_logo_url' | 'nav_logo_url') => ({
    name,
    value: form.values[name],
    onValueChange: (v: string) => form.setValue(name, v),
    error: form.errors[name],
  });

  return (
    <form className="settings" onSubmit={onSubmit} noValidate>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('settings.branding')}</h2>
        </div>
        <div className="card__body form-grid form-grid--2">
          <TextField label={t('settings.instanceName')} className="form-grid__wide" {...text('instance_name')} />
          <TextField label={t('settings.mainLogo')} hint={t('settings.logoHint')} isOptional {...text('main_logo_url')} />
          <TextField label={t('settings.navLogo')} hint={t('settings.logoHint')} isOptional {...text('nav_logo_url')} />
        </div>
      </div>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('settings.modules')}</h2>
        </div>
        <fieldset className="card__body check-list settings__modules">
          <legend className="visually-hidden">{t('settings.modules')}</legend>
          <p className="field__hint">{t('settings.modulesHint')}</p>
          {MODULES.map(([name, label]) => (
            <CheckboxField key={name} label={t(label)} checked={form.values[name]} onCheckedChange={(v) => form.setValue(name, v)} />
          ))}
        </fieldset>
      </div>
      <div className="form-actions">
        <Button type="submit" variant="primary" isLoading={update.isPending}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
