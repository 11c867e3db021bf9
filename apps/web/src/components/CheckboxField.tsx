import { type ReactNode, useId } from 'react';

interface CheckboxFieldProps {
  label: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  hint?: ReactNode;
  disabled?: boolean;
  name?: string;
}

export function CheckboxField({ label, checked, onCheckedChange, hint, disabled, name }: CheckboxFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="checkbox-field">
      <input
        id={id}
        name={name}
        type="checkbox"
        className="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onCheckedChange(e.target.checked)}
        aria-describedby={hintId}
      />
      <div>
        <label htmlFor={id} className="checkbox-field__label">
          {label}
        </label>
        {hint ? (
          <p id={hintId} className="field__hint">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
