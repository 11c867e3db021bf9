import { useId } from 'react';

interface SelectFieldProps<V extends string> {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onValueChange: (value: V) => void;
  className?: string;
  /** Visually hide the label (it stays available to assistive technology). */
  isLabelHidden?: boolean;
  id?: string;
}

export function SelectField<V extends string>({ label, value, options, onValueChange, className, isLabelHidden, id }: SelectFieldProps<V>) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className={['field', 'field--select', className ?? ''].filter(Boolean).join(' ')}>
      <label className={isLabelHidden ? 'visually-hidden' : 'field__label'} htmlFor={selectId}>
        {label}
      </label>
      <select id={selectId} className="select" value={value} onChange={(e) => onValueChange(e.target.value as V)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
