interface SearchFieldProps {
  /** The input's id (the label points at it). */
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Visually hide the label (it stays available to assistive technology); hidden unless false. */
  isLabelHidden?: boolean;
  maxLength?: number;
  autoComplete?: string;
}

/** The search box of a list toolbar. */
export function SearchField({
  id,
  label,
  placeholder,
  value,
  onValueChange,
  isLabelHidden = true,
  maxLength,
  autoComplete,
}: SearchFieldProps) {
  return (
    <div className="field toolbar__search">
      <label htmlFor={id} className={isLabelHidden ? 'visually-hidden' : 'field__label'}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        className="input"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        maxLength={maxLength}
        autoComplete={autoComplete}
      />
    </div>
  );
}
