import { type EventType, WEBHOOK_TRIGGERS } from '@palisade/contracts';
import { useId } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';
import { isLaterTrigger, triggerLabelKey } from './webhook-form';

interface WebhookTriggersFieldProps {
  value: readonly EventType[];
  onValueChange: (value: EventType[]) => void;
  error: FieldIssue | undefined;
}

/** One checkbox per trigger of the event catalogue; at least one is required (spec §5). */
export function WebhookTriggersField({ value, onValueChange, error }: WebhookTriggersFieldProps) {
  const { t } = useTranslation();
  const errorId = useId();
  const toggle = (trigger: EventType, checked: boolean) =>
    onValueChange(checked ? [...value, trigger] : value.filter((v) => v !== trigger));
  return (
    <fieldset
      className={['field', 'form-grid__wide', 'check-list', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="field__label">{t('webhooks.triggers')}</legend>
      {WEBHOOK_TRIGGERS.map((trigger) => (
        <CheckboxField
          key={trigger}
          name="triggers"
          label={t(triggerLabelKey(trigger))}
          hint={isLaterTrigger(trigger) ? t('webhooks.triggerLater') : undefined}
          checked={value.includes(trigger)}
          onCheckedChange={(checked) => toggle(trigger, checked)}
        />
      ))}
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {fieldMessage(t, error)}
        </p>
      ) : null}
    </fieldset>
  );
}
