import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { Button } from './Button';
import './credential-list.css';

interface Named {
  id: number;
  name: string;
}

/**
 * A profile card's list of named credentials (API tokens, authentication keys, YubiKeys): the
 * query's loading, error and empty states, then one row per item with its details and its
 * Rename and Delete buttons.
 */
export function CredentialList<T extends Named>({
  query,
  label,
  emptyText,
  errorTitle,
  renameText,
  renameLabel,
  deleteLabel,
  renderDetails,
  onRename,
  onDelete,
}: {
  query: UseQueryResult<T[]>;
  /** The list's accessible name. */
  label: string;
  emptyText: string;
  /** The error's title, with the API's message as its hint; without it the API's message is the title. */
  errorTitle?: string;
  renameText: string;
  renameLabel: (item: T) => string;
  deleteLabel: (item: T) => string;
  /** The row's text: name and details, as spans inside a vertical stack. */
  renderDetails: (item: T) => ReactNode;
  onRename: (item: T) => void;
  onDelete: (item: T) => void;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (query.isError) {
    const message = problemMessage(t, query.error);
    return (
      <StateMessage
        kind="error"
        title={errorTitle ?? message}
        hint={errorTitle ? message : undefined}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.length === 0) return <p className="field__hint">{emptyText}</p>;
  return (
    <ul className="credential-list" aria-label={label}>
      {query.data.map((item) => (
        <li key={item.id} className="credential-list__item">
          <div className="credential-list__text">{renderDetails(item)}</div>
          <div className="credential-list__actions">
            <Button size="sm" onClick={() => onRename(item)} aria-label={renameLabel(item)}>
              {renameText}
            </Button>
            <Button size="sm" variant="danger" onClick={() => onDelete(item)} aria-label={deleteLabel(item)}>
              {t('common.delete')}
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
