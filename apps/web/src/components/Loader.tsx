interface LoaderProps {
  /** Diameter in px; spec §9: default 20, the page loader uses 70. */
  size?: number;
  label?: string;
  className?: string;
}

/** A spinning circle, one turn per second (spec §1). Colour follows `currentColor`. */
export function Loader({ size = 20, label, className }: LoaderProps) {
  return (
    <span className={['loader', className].filter(Boolean).join(' ')} role={label ? 'status' : undefined}>
      <svg className="loader__circle" width={size} height={size} viewBox="0 0 50 50" aria-hidden="true">
        <circle cx="25" cy="25" r="21" fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="5" />
        <path d="M25 4 a21 21 0 0 1 21 21" fill="none" stroke="currentColor" strokeWidth="5" strokeLinecap="round" />
      </svg>
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}
