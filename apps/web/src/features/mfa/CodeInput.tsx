import { useId } from 'react';
import { CODE_LENGTH, isCompleteCode, normalizeCode } from './code-input';
import './mfa.css';

interface CodeInputProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Called once the field holds six digits (typed or pasted), to submit without a click. */
  onComplete?: (code: string) => void;
  error?: string | undefined;
  disabled?: boolean;
  autoFocus?: boolean;
}

/** A 6-digit code field: keeps digits only, accepts a pasted code with spaces or dashes, submits on the sixth digit. */
export function CodeInput({ label, value, onValueChange, onComplete, error, disabled, autoFocus }: CodeInputProps) {
  const inputId = useId();
  const errorId = error ? `${inputId}-error` : undefined;
  const change = (raw: string) => {
    const code = normalizeCode(raw);
    onValueChange(code);
    if (code !== value && isCompleteCode(code)) onComplete?.(code);
  };
  return (
    <div className={['field', error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className="input code-input"
        value={value}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={CODE_LENGTH}
        spellCheck={false}
        disabled={disabled}
        // biome-ignore lint/a11y/noAutofocus: the code field is the only thing to do on this step
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        onChange={(e) => change(e.target.value)}
        onPaste={(e) => {
          e.preventDefault();
          change(e.clipboardData.getData('text'));
        }}
      />
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
