import { useId } from 'react';
import { Button } from '@/components/Button';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';
import { useCopy } from '@/lib/use-copy';
import { generateWebhookToken } from './webhook-form';

interface WebhookTokenFieldProps {
  value: string;
  onValueChange: (value: string) => void;
  error: FieldIssue | undefined;
  /** On edit the stored token is never shown: empty keeps it. */
  isNew: boolean;
}

/** The secret receivers verify signatures with: typed, or generated here, and copied before saving. */
export function WebhookTokenField({ value, onValueChange, error, isNew }: WebhookTokenFieldProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  const hintId = `${id}-hint`;
  return (
    <div className={['field', 'form-grid__wide', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {t('webhooks.token')}
      </label>
      <div className="webhook-token">
        <input
          id={id}
          name="token"
          className="input mono"
          autoComplete="off"
          spellCheck={false}
          value={value}
          placeholder={isNew ? undefined : t('webhooks.tokenKeepPlaceholder')}
          onChange={(e) => onValueChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
        />
        <Button onClick={() => onValueChange(generateWebhookToken())}>{t('webhooks.generateToken')}</Button>
        <Button onClick={() => void copy(value)} disabled={value === ''}>
          {t('webhooks.copyToken')}
        </Button>
      </div>
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {fieldMessage(t, error)}
        </p>
      ) : null}
      <p id={hintId} className="field__hint">
        {isNew ? t('webhooks.tokenHint') : t('webhooks.tokenKeepHint')}
      </p>
    </div>
  );
}
