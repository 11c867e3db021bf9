import type { ReactNode } from 'react';
import { Button } from './Button';

/**
 * The skeleton of an overview page: its title with the primary Add button, a card holding the
 * toolbar (search, filters) and the list, and the page's dialogs after the card.
 */
export function ListPage({
  titleId,
  title,
  addText,
  onAdd,
  toolbar,
  dialogs,
  children,
}: {
  /** The heading's id: the section is labelled by it. */
  titleId: string;
  title: string;
  addText: string;
  onAdd: () => void;
  toolbar: ReactNode;
  dialogs: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={titleId}>
      <header className="page-header">
        <h1 id={titleId} className="page-header__title">
          {title}
        </h1>
        <div className="page-header__actions">
          <Button variant="primary" onClick={onAdd}>
            {addText}
          </Button>
        </div>
      </header>
      <div className="card">
        <div className="toolbar">{toolbar}</div>
        {children}
      </div>
      {dialogs}
    </section>
  );
}
