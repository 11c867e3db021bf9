import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: FieldIssue | undefined;
  hint?: ReactNode;
  /** Status line under the field that is not an error (e.g. "Username is available"). */
  status?: ReactNode;
  isOptional?: boolean;
}

/** A labelled input; its error and hint are linked with aria-describedby. */
export function TextField({ label, value, onValueChange, error, hint, status, isOptional, id, className, ...rest }: TextFieldProps) {
  const { t } = useTranslation();
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const statusId = status ? `${inputId}-status` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [errorId, statusId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={inputId}>
        {label}
        {isOptional ? <span className="field__optional"> ({t('common.optional')})</span> : null}
      </label>
      <input
        id={inputId}
        className="input"
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...rest}
      />
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {fieldMessage(t, error)}
        </p>
      ) : null}
      {status ? (
        <p id={statusId} className="field__status" aria-live="polite">
          {status}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
