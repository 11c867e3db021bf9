import type { ReactNode } from 'react';

/** A titled card of a settings form (a region named by its title), its hint first, fields in two columns. */
export function SettingsSection({ titleId, title, hint, children }: { titleId: string; title: string; hint: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={titleId}>
      <div className="card__header">
        <h2 id={titleId} className="card__title">
          {title}
        </h2>
      </div>
      <div className="card__body form-grid form-grid--2">
        <p className="field__hint form-grid__wide">{hint}</p>
        {children}
      </div>
    </section>
  );
}
