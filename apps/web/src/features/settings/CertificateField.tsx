import { useId } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';

interface CertificateFieldProps {
  value: string;
  onValueChange: (value: string) => void;
  error: FieldIssue | undefined;
}

/** The PEM CA certificate Palisade trusts for one destination (empty: the system's trusted CAs). */
export function CertificateField({ value, onValueChange, error }: CertificateFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={['field', 'form-grid__wide', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {t('settings.streams.certificate')}
        <span className="field__optional"> ({t('common.optional')})</span>
      </label>
      <textarea
        id={id}
        name="certificate"
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
        {t('settings.streams.certificateHint')}
      </p>
    </div>
  );
}
