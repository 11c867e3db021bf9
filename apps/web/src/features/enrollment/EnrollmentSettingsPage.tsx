import { PatchSettingsBodySchema, type Settings } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { StateMessage } from '@/components/StateMessage';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { SettingsFormActions, useSettingsLeaveGuard } from '@/features/settings/SettingsFormActions';
import { settingsQueryOptions } from '@/features/settings/settings.queries';
import { useTranslation } from '@/i18n/use-translation';
import { useZodForm } from '@/lib/use-zod-form';
import { MarkdownEditor } from './MarkdownEditor';
import { useUpdateEnrollmentSettings } from './enrollment.mutations';
import { enrollmentFormValues, enrollmentSettingsBody, isEnrollmentFormDirty } from './enrollment-settings-form';
import '@/features/settings/settings.css';
import './enrollment.css';

/** Enrollment settings (spec §2, §3): the welcome message, the welcome email, the VPN step, the link lifetime. */
export function EnrollmentSettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery(settingsQueryOptions);
  const update = useUpdateEnrollmentSettings();
  return (
    <section aria-labelledby="enrollment-settings-title">
      <header className="page-header">
        <h1 id="enrollment-settings-title" className="page-header__title">
          {t('enrollment.settings.title')}
        </h1>
      </header>
      {settings.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : settings.isError ? (
        <StateMessage kind="error" title={t('settings.loadError')} onRetry={() => void settings.refetch()} />
      ) : (
        <EnrollmentSettingsForm key={settings.dataUpdatedAt} settings={settings.data} update={update} />
      )}
    </section>
  );
}

function EnrollmentSettingsForm({ settings, update }: { settings: Settings; update: ReturnType<typeof useUpdateEnrollmentSettings> }) {
  const { t } = useTranslation();
  const saved = enrollmentFormValues(settings);
  const form = useZodForm(PatchSettingsBodySchema, saved);
  const isDirty = isEnrollmentFormDirty(form.values, saved);
  useSettingsLeaveGuard(isDirty);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(enrollmentSettingsBody(form.values));
    if (!body) return;
    update.mutate(body, {
      onSuccess: () => pushToast({ id: 'enrollment-settings-saved', kind: 'success', message: t('enrollment.settings.saved') }),
      onError: (error) => {
        if (form.applyServerError(error)) return;
        form.setFormError(undefined);
        pushToast({ id: 'enrollment-settings-saved', kind: 'error', message: t('enrollment.settings.saveError') });
      },
    });
  };

  const reuse = form.values.enrollment_use_welcome_message_as_email;
  return (
    <form className="settings" onSubmit={onSubmit} noValidate aria-label={t('enrollment.settings.title')}>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('enrollment.settings.welcomeTitle')}</h2>
        </div>
        <div className="card__body form-grid">
          <MarkdownEditor
            label={t('enrollment.settings.welcomeMessage')}
            name="enrollment_welcome_message"
            value={form.values.enrollment_welcome_message}
            onValueChange={(v) => form.setValue('enrollment_welcome_message', v)}
            error={form.errors.enrollment_welcome_message}
            hint={t('enrollment.settings.welcomeMessageHint')}
          />
        </div>
      </div>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('enrollment.settings.emailTitle')}</h2>
        </div>
        <div className="card__body form-grid">
          <TextField
            label={t('enrollment.settings.emailSubject')}
            name="enrollment_welcome_email_subject"
            hint={t('enrollment.settings.emailSubjectHint')}
            isOptional
            value={form.values.enrollment_welcome_email_subject}
            onValueChange={(v) => form.setValue('enrollment_welcome_email_subject', v)}
            error={form.errors.enrollment_welcome_email_subject}
          />
          <CheckboxField
            name="enrollment_use_welcome_message_as_email"
            label={t('enrollment.settings.reuse')}
            hint={t('enrollment.settings.reuseHint')}
            checked={reuse}
            onCheckedChange={(v) => form.setValue('enrollment_use_welcome_message_as_email', v)}
          />
          {reuse ? null : (
            <MarkdownEditor
              label={t('enrollment.settings.emailBody')}
              name="enrollment_welcome_email"
              value={form.values.enrollment_welcome_email}
              onValueChange={(v) => form.setValue('enrollment_welcome_email', v)}
              error={form.errors.enrollment_welcome_email}
            />
          )}
        </div>
      </div>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('enrollment.settings.flowTitle')}</h2>
        </div>
        <div className="card__body form-grid">
          <CheckboxField
            name="enrollment_vpn_step_optional"
            label={t('enrollment.settings.vpnOptional')}
            hint={t('enrollment.settings.vpnOptionalHint')}
            checked={form.values.enrollment_vpn_step_optional}
            onCheckedChange={(v) => form.setValue('enrollment_vpn_step_optional', v)}
          />
          <TextField
            label={t('enrollment.settings.lifetime')}
            name="enrollment_token_lifetime_hours"
            inputMode="numeric"
            hint={t('enrollment.settings.lifetimeHint')}
            value={form.values.enrollment_token_lifetime_hours}
            onValueChange={(v) => form.setValue('enrollment_token_lifetime_hours', v)}
            error={form.errors.enrollment_token_lifetime_hours}
          />
        </div>
      </div>
      <SettingsFormActions isDirty={isDirty} isSaving={update.isPending} error={form.formError} onReset={() => form.reset(saved)} />
    </form>
  );
}
