import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@/i18n/use-translation';

interface FilterPopoverProps {
  label: string;
  /** How many values are chosen; the button says "Any" for none. */
  count: number;
  onClear: () => void;
  children: ReactNode;
}

/** A toolbar button that opens a panel of choices; Escape or a click elsewhere closes it. */
export function FilterPopover({ label, count, onClear, children }: FilterPopoverProps) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isOpen]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape closes the panel from any control inside it
    <div
      ref={rootRef}
      className="activity-filter"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && isOpen) {
          event.stopPropagation();
          setIsOpen(false);
          buttonRef.current?.focus();
        }
      }}
    >
      <span className="field__label" aria-hidden="true">
        {label}
      </span>
      <button
        ref={buttonRef}
        type="button"
        className="select activity-filter__button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        aria-label={`${label}: ${count ? t('activity.filter.selected', { count }) : t('activity.filter.any')}`}
        onClick={() => setIsOpen((open) => !open)}
      >
        {count ? t('activity.filter.selected', { count }) : t('activity.filter.any')}
      </button>
      <fieldset id={panelId} className="activity-filter__panel" hidden={!isOpen}>
        <legend className="visually-hidden">{label}</legend>
        {isOpen ? children : null}
        <div className="activity-filter__footer">
          <button type="button" className="btn btn--ghost btn--sm" onClick={onClear} disabled={count === 0}>
            {t('activity.filter.clear')}
          </button>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => setIsOpen(false)}>
            {t('common.close')}
          </button>
        </div>
      </fieldset>
    </div>
  );
}
