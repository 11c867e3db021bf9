import { type Settings, UpdateSettingsBodySchema } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { StateMessage } from '@/components/StateMessage';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { SettingsFormActions, useSettingsLeaveGuard } from '@/features/settings/SettingsFormActions';
import { settingsQueryOptions } from '@/features/settings/settings.queries';
import { useTranslation } from '@/i18n/use-translation';
import { useZodForm } from '@/lib/use-zod-form';
import { useUpdateGatewayNotifications } from './gateway-notifications.mutations';
import './gateways.css';

const NotificationsBodySchema = UpdateSettingsBodySchema.pick({
  gateway_disconnect_notifications_enabled: true,
  gateway_inactivity_threshold: true,
  gateway_reconnect_notifications_enabled: true,
});

type FormValues = {
  gateway_disconnect_notifications_enabled: boolean;
  /** As typed; the body gets a number. */
  gateway_inactivity_threshold: string;
  gateway_reconnect_notifications_enabled: boolean;
};

const formValues = (s: Settings): FormValues => ({
  gateway_disconnect_notifications_enabled: s.gateway_disconnect_notifications_enabled ?? false,
  gateway_inactivity_threshold: String(s.gateway_inactivity_threshold ?? 5),
  gateway_reconnect_notifications_enabled: s.gateway_reconnect_notifications_enabled ?? false,
});

const toBody = (v: FormValues) => {
  const threshold = v.gateway_inactivity_threshold.trim();
  return {
    gateway_disconnect_notifications_enabled: v.gateway_disconnect_notifications_enabled,
    gateway_inactivity_threshold: /^\d+$/.test(threshold) ? Number(threshold) : Number.NaN,
    gateway_reconnect_notifications_enabled: v.gateway_reconnect_notifications_enabled,
  };
};

/** Outgoing mail is configured when server, port and sender are set (as the API decides). */
const isSmtpConfigured = (s: Settings) => Boolean(s.smtp_server && s.smtp_port && s.smtp_sender);

/**
 * Settings › Gateway notifications (docs/gateways.md#notifications): mail to the administrators
 * when a gateway stays disconnected longer than the threshold, and when it is back. Spec §5: they
 * need SMTP first; until it is configured the card says so, links to the SMTP tab and stays disabled.
 */
export function GatewayNotificationsCard() {
  const { t } = useTranslation();
  const settings = useQuery(settingsQueryOptions);
  if (settings.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (settings.isError) return <StateMessage kind="error" title={t('settings.loadError')} onRetry={() => void settings.refetch()} />;
  return <GatewayNotificationsForm key={settings.dataUpdatedAt} settings={settings.data} />;
}

function GatewayNotificationsForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const titleId = useId();
  const update = useUpdateGatewayNotifications();
  const saved = formValues(settings);
  const form = useZodForm(NotificationsBodySchema, saved);
  const isDisabled = !isSmtpConfigured(settings);
  const isDirty = (Object.keys(saved) as (keyof FormValues)[]).some((k) => form.values[k] !== saved[k]);
  useSettingsLeaveGuard(isDirty);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(toBody(form.values));
    if (!body) return;
    update.mutate(body, {
      onSuccess: () => pushToast({ id: 'gateway-notifications-saved', kind: 'success', message: t('settings.saved') }),
      onError: (error) => form.applyServerError(error),
    });
  };

  return (
    <form className="settings" onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
      <section className="card" aria-labelledby={titleId}>
        <div className="card__header">
          <h2 id={titleId} className="card__title">
            {t('notifications.title')}
          </h2>
        </div>
        <div className="card__body notifications__form">
          {isDisabled ? (
            <p className="banner banner--info" role="note">
              {t('notifications.smtpRequired')}{' '}
              <Link to="/settings" search={{ tab: 'smtp' }}>
                {t('notifications.smtpLink')}
              </Link>
            </p>
          ) : (
            <p className="field__hint">{t('notifications.recipients')}</p>
          )}
          <fieldset disabled={isDisabled}>
            <legend className="visually-hidden">{t('notifications.title')}</legend>
            <CheckboxField
              name="gateway_disconnect_notifications_enabled"
              label={t('notifications.disconnect')}
              hint={t('notifications.disconnectHint')}
              checked={form.values.gateway_disconnect_notifications_enabled}
              disabled={isDisabled}
              onCheckedChange={(v) => form.setValue('gateway_disconnect_notifications_enabled', v)}
            />
            <TextField
              className="notifications__threshold"
              name="gateway_inactivity_threshold"
              inputMode="numeric"
              label={t('notifications.threshold')}
              hint={t('notifications.thresholdHint')}
              value={form.values.gateway_inactivity_threshold}
              error={form.errors.gateway_inactivity_threshold}
              disabled={isDisabled}
              onValueChange={(v) => form.setValue('gateway_inactivity_threshold', v)}
            />
            <CheckboxField
              name="gateway_reconnect_notifications_enabled"
              label={t('notifications.reconnect')}
              hint={t('notifications.reconnectHint')}
              checked={form.values.gateway_reconnect_notifications_enabled}
              disabled={isDisabled}
              onCheckedChange={(v) => form.setValue('gateway_reconnect_notifications_enabled', v)}
            />
          </fieldset>
        </div>
      </section>
      <SettingsFormActions isDirty={isDirty} isSaving={update.isPending} error={form.formError} onReset={() => form.reset(saved)} />
    </form>
  );
}
