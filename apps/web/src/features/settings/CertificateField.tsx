import { useId } from 'react';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';

interface CertificateFieldProps {
  value: string;
  onValueChange: (value: string) => void;
  error: FieldIssue | undefined;
  /** The form field's name, label and hint; a stream destination's by default. */
  name?: string;
  label?: MessageKey;
  hint?: MessageKey;
}

/** The PEM CA certificate Palisade trusts for one destination (empty: the system's trusted CAs). */
export function CertificateField({
  value,
  onValueChange,
  error,
  name = 'certificate',
  label = 'settings.streams.certificate',
  hint = 'settings.streams.certificateHint',
}: CertificateFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={['field', 'form-grid__wide', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {t(label)}
        <span className="field__optional"> ({t('common.optional')})</span>
      </label>
      <textarea
        id={id}
        name={name}
        className="input mono settings__certificate"
        rows={6}
        spellCheck={false}
        placeholder="-----BEGIN CERTIFICATE-----"
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[errorId, `${id}-hint`].filter(Boolean).join(' ')}
      />
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {fieldMessage(t, error)}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="field__hint">
        {t(hint)}
      </p>
    </div>
  );
}
