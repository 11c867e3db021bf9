import { ApiError } from '@palisade/api-client';
import { SMTP_ENCRYPTIONS, type Settings, type SmtpEncryption, UpdateSettingsBodySchema } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { useZodForm } from '@/lib/use-zod-form';
import { SettingsFormActions, useSettingsLeaveGuard } from './SettingsFormActions';
import { StoredPasswordField, storedPasswordBody } from './StoredPasswordField';
import { settingsQueryOptions } from './settings.queries';
import { useSendTestMail, useUpdateSmtpSettings } from './smtp.mutations';

const SmtpBodySchema = UpdateSettingsBodySchema.pick({
  smtp_server: true,
  smtp_port: true,
  smtp_encryption: true,
  smtp_user: true,
  smtp_password: true,
  smtp_sender: true,
});

type SmtpFormValues = {
  smtp_server: string;
  /** As typed; the body gets a number. */
  smtp_port: string;
  smtp_encryption: SmtpEncryption;
  smtp_user: string;
  /** Empty keeps the stored password. */
  smtp_password: string;
  smtp_sender: string;
};

const formValues = (s: Settings): SmtpFormValues => ({
  smtp_server: s.smtp_server ?? '',
  // The API client drops nulls: no port yet arrives as undefined.
  smtp_port: s.smtp_port == null ? '' : String(s.smtp_port),
  smtp_encryption: s.smtp_encryption ?? 'starttls',
  smtp_user: s.smtp_user ?? '',
  smtp_password: '',
  smtp_sender: s.smtp_sender ?? '',
});

const toBody = (v: SmtpFormValues, removePassword: boolean) => {
  const port = v.smtp_port.trim();
  return {
    smtp_server: v.smtp_server,
    ...(port !== '' && { smtp_port: /^\d+$/.test(port) ? Number(port) : Number.NaN }),
    smtp_encryption: v.smtp_encryption,
    smtp_user: v.smtp_user,
    smtp_sender: v.smtp_sender,
    ...storedPasswordBody('smtp_password', v.smtp_password, removePassword),
  };
};

/** Settings › SMTP: the mail server every Palisade mail goes through, and a test mail. */
export function SmtpSettingsTab() {
  const { t } = useTranslation();
  const settings = useQuery(settingsQueryOptions);
  const update = useUpdateSmtpSettings();
  if (settings.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (settings.isError) return <StateMessage kind="error" title={t('settings.loadError')} onRetry={() => void settings.refetch()} />;
  return (
    <>
      <SmtpSettingsForm key={settings.dataUpdatedAt} settings={settings.data} update={update} />
      <TestMailCard isConfigured={Boolean(settings.data.smtp_server && settings.data.smtp_port && settings.data.smtp_sender)} />
    </>
  );
}

function SmtpSettingsForm({ settings, update }: { settings: Settings; update: ReturnType<typeof useUpdateSmtpSettings> }) {
  const { t } = useTranslation();
  const saved = formValues(settings);
  const form = useZodForm(SmtpBodySchema, saved);
  const [removePassword, setRemovePassword] = useState(false);
  const isDirty = removePassword || (Object.keys(saved) as (keyof SmtpFormValues)[]).some((k) => form.values[k] !== saved[k]);
  useSettingsLeaveGuard(isDirty);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(toBody(form.values, removePassword));
    if (!body) return;
    update.mutate(body, {
      onSuccess: () => pushToast({ id: 'smtp-saved', kind: 'success', message: t('settings.saved') }),
      onError: (error) => form.applyServerError(error),
    });
  };

  const text = (name: Exclude<keyof SmtpFormValues, 'smtp_encryption'>) => ({
    name,
    value: form.values[name],
    onValueChange: (v: string) => form.setValue(name, v),
    error: form.errors[name],
  });
  const encryptionLabel = { none: t('smtp.encryption.none'), starttls: t('smtp.encryption.starttls'), tls: t('smtp.encryption.tls') };

  return (
    <form className="settings" onSubmit={onSubmit} noValidate aria-label={t('settings.tab.smtp')}>
      <div className="card">
        <div className="card__header">
          <h2 className="card__title">{t('smtp.title')}</h2>
        </div>
        <div className="card__body form-grid form-grid--2">
          <p className="field__hint form-grid__wide">{t('smtp.hint')}</p>
          <TextField label={t('smtp.server')} autoComplete="off" {...text('smtp_server')} />
          <TextField label={t('smtp.port')} inputMode="numeric" {...text('smtp_port')} />
          <SelectField
            label={t('smtp.encryption')}
            value={form.values.smtp_encryption}
            options={SMTP_ENCRYPTIONS.map((value) => ({ value, label: encryptionLabel[value] }))}
            onValueChange={(v) => form.setValue('smtp_encryption', v)}
          />
          <TextField label={t('smtp.sender')} type="email" {...text('smtp_sender')} />
          <TextField label={t('smtp.user')} isOptional autoComplete="off" {...text('smtp_user')} />
          <StoredPasswordField
            labels={{
              label: t('smtp.password'),
              keepHint: t('smtp.passwordKeepHint'),
              isSet: t('smtp.passwordSet'),
              keep: t('smtp.passwordKeep'),
              remove: t('smtp.passwordRemove'),
            }}
            {...text('smtp_password')}
            isSet={Boolean(settings.smtp_password_set)}
            isRemoved={removePassword}
            onRemovedChange={setRemovePassword}
          />
        </div>
      </div>
      <SettingsFormActions
        isDirty={isDirty}
        isSaving={update.isPending}
        error={form.formError}
        onReset={() => {
          setRemovePassword(false);
          form.reset(saved);
        }}
      />
    </form>
  );
}

/** Sends a test mail with the saved settings; the server's refusal is shown as it answered. */
function TestMailCard({ isConfigured }: { isConfigured: boolean }) {
  const { t, language } = useTranslation();
  const [to, setTo] = useState('');
  const send = useSendTestMail();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(
      { to: to.trim(), locale: language },
      {
        onSuccess: () => pushToast({ id: 'smtp-test', kind: 'success', message: t('smtp.testSent', { to: to.trim() }) }),
        onError: (error) => {
          const detail = error instanceof ApiError ? (error.problem.detail ?? '') : '';
          const reason =
            error instanceof ApiError && error.code === 'mail.send_failed' ? detail.replace(/^Error sending email:\s*/, '') : '';
          const title =
            error instanceof ApiError && error.code === 'mail.not_configured'
              ? t('error.mail.not_configured')
              : t('error.mail.send_failed');
          pushToast({ id: 'smtp-test', kind: 'error', message: reason ? `${title}: ${reason}` : title });
        },
      },
    );
  };
  return (
    <form className="card" onSubmit={onSubmit} noValidate aria-label={t('smtp.testTitle')}>
      <div className="card__header">
        <h2 className="card__title">{t('smtp.testTitle')}</h2>
      </div>
      <div className="card__body form-grid form-grid--2">
        <p className="field__hint form-grid__wide">{isConfigured ? t('smtp.testHint') : t('smtp.testNotConfigured')}</p>
        <TextField label={t('smtp.testRecipient')} type="email" name="to" value={to} onValueChange={setTo} disabled={!isConfigured} />
        <div>
          <Button type="submit" variant="primary" isLoading={send.isPending} disabled={!isConfigured || to.trim() === ''}>
            {t('smtp.testSend')}
          </Button>
        </div>
      </div>
    </form>
  );
}
