interface LogoProps {
  size?: number;
  className?: string;
  /** When set, an operator-provided logo (settings) replaces the built-in mark. */
  src?: string | undefined;
  alt?: string;
}

/** The Palisade mark: a stylised fence of pickets. */
export function Logo({ size = 32, className, src, alt = '' }: LogoProps) {
  if (src) return <img className={className} src={src} alt={alt} height={size} />;
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 32 32"
      role={alt ? 'img' : undefined}
      aria-label={alt || undefined}
      aria-hidden={alt ? undefined : true}
    >
      <rect width="32" height="32" rx="7" fill="var(--logo-bg, #1f5fd6)" />
      <path d="M8 25V9l4-3 4 3 4-3 4 3v16" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinejoin="round" />
      <path d="M12 12v13M20 12v13" stroke="#fff" strokeWidth="2.4" />
    </svg>
  );
}
