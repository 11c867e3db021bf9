import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { type FieldIssue, fieldMessage } from '@/lib/field-errors';

interface TagInputProps {
  label: string;
  values: readonly string[];
  onValuesChange: (values: string[]) => void;
  error?: FieldIssue | undefined;
  hint?: string;
  placeholder?: string;
  className?: string;
  isOptional?: boolean;
}

/** Several values in one field: Enter, comma or leaving the field adds; each tag has a remove button. */
export function TagInput({ label, values, onValuesChange, error, hint, placeholder, className, isOptional }: TagInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState('');
  const errorId = error ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;

  const commit = () => {
    const parts = draft
      .split(/[\s,]+/)
      .map((p) => p.trim())
      .filter((p) => p && !values.includes(p));
    if (parts.length) onValuesChange([...values, ...new Set(parts)]);
    setDraft('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Backspace' && draft === '' && values.length) {
      onValuesChange(values.slice(0, -1));
    }
  };

  return (
    <div className={['field', error ? 'field--invalid' : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
        {isOptional ? <span className="field__optional"> ({t('common.optional')})</span> : null}
      </label>
      <div className="tag-input">
        {values.map((value) => (
          <span key={value} className="tag">
            {value}
            <button
              type="button"
              className="tag__remove"
              aria-label={t('common.removeValue', { value })}
              onClick={() => onValuesChange(values.filter((v) => v !== value))}
            >
              ×
            </button>
          </span>
        ))}
        <input
          id={id}
          className="tag-input__input"
          value={draft}
          placeholder={values.length ? undefined : placeholder}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={commit}
          aria-invalid={error ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(' ') || undefined}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {fieldMessage(t, error)}
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
