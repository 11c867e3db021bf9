import { useId } from 'react';
import { Button } from '@/components/Button';
import { CheckboxField } from '@/components/CheckboxField';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import './gateways.css';

/** Spec §3 fields with their defaults: disconnect and reconnect emails off, 5 minutes of inactivity. */
const DEFAULTS = {
  disconnect_notifications_enabled: false,
  inactivity_threshold: 5,
  reconnect_notifications_enabled: false,
} as const;

/**
 * Settings → Gateway notifications. Spec §5: they require SMTP first. Palisade has no SMTP
 * settings yet (no `smtp_configured` flag in any settings payload), so the form says so and every
 * control stays disabled; it becomes editable in the issue that brings SMTP.
 */
export function GatewayNotificationsCard() {
  const { t } = useTranslation();
  const isDisabled = true;
  const titleId = useId();
  const values = DEFAULTS;
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card__header">
        <h2 id={titleId} className="card__title">
          {t('notifications.title')}
        </h2>
      </div>
      <form className="card__body notifications__form" aria-labelledby={titleId} onSubmit={(e) => e.preventDefault()}>
        {isDisabled ? (
          <p className="banner banner--info" role="note">
            {t('notifications.smtpRequired')}
          </p>
        ) : null}
        <fieldset disabled={isDisabled}>
          <legend className="visually-hidden">{t('notifications.title')}</legend>
          <CheckboxField
            name="disconnect_notifications_enabled"
            label={t('notifications.disconnect')}
            hint={t('notifications.disconnectHint')}
            checked={values.disconnect_notifications_enabled}
            disabled={isDisabled}
            onCheckedChange={() => undefined}
          />
          <TextField
            className="notifications__threshold"
            type="number"
            inputMode="numeric"
            min={1}
            label={t('notifications.threshold')}
            hint={t('notifications.thresholdHint')}
            value={String(values.inactivity_threshold)}
            disabled={isDisabled}
            onValueChange={() => undefined}
          />
          <CheckboxField
            name="reconnect_notifications_enabled"
            label={t('notifications.reconnect')}
            hint={t('notifications.reconnectHint')}
            checked={values.reconnect_notifications_enabled}
            disabled={isDisabled}
            onCheckedChange={() => undefined}
          />
        </fieldset>
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={isDisabled}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}
