import type { ApiToken, CreatedApiToken } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { CredentialList } from '@/components/CredentialList';
import { DeleteCredentialDialog } from '@/components/DeleteCredentialDialog';
import { pushToast } from '@/components/toast-store';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { ApiTokenNameDialog } from './ApiTokenNameDialog';
import { ApiTokenShownDialog } from './ApiTokenShownDialog';
import { apiTokensQueryOptions, useDeleteApiToken } from './api-tokens.queries';
import './api-tokens.css';

type Editing = { kind: 'create' } | { kind: 'rename'; token: ApiToken } | { kind: 'shown'; created: CreatedApiToken };

/** The profile's "API tokens": name, created and last used; create (shown once), rename, delete. */
export function ApiTokensCard({ username }: { username: string }) {
  const { t, language } = useTranslation();
  const tokens = useQuery(apiTokensQueryOptions(username));
  const remove = useDeleteApiToken(username);
  const [editing, setEditing] = useState<Editing | undefined>(undefined);
  const [deleting, setDeleting] = useState<ApiToken | undefined>(undefined);

  const body = (
    <CredentialList
      query={tokens}
      label={t('apiTokens.title')}
      emptyText={t('apiTokens.empty')}
      errorTitle={t('apiTokens.loadError')}
      renameText={t('apiTokens.rename')}
      renameLabel={(token) => t('apiTokens.renameNamed', { name: token.name })}
      deleteLabel={(token) => t('apiTokens.deleteNamed', { name: token.name })}
      renderDetails={(token) => (
        <>
          <span className="credential-list__name">{token.name}</span>
          <span className="field__hint">
            {t('apiTokens.created', { date: formatDateTime(language, token.created_at) })}
            {' · '}
            {token.last_used_at
              ? t('apiTokens.lastUsed', { date: formatDateTime(language, token.last_used_at) })
              : t('apiTokens.neverUsed')}
          </span>
        </>
      )}
      onRename={(token) => setEditing({ kind: 'rename', token })}
      onDelete={setDeleting}
    />
  );

  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('apiTokens.title')}</h2>
        <Button size="sm" variant="primary" onClick={() => setEditing({ kind: 'create' })}>
          {t('apiTokens.add')}
        </Button>
      </div>
      <div className="card__body">{body}</div>
      {editing?.kind === 'create' ? (
        <ApiTokenNameDialog
          username={username}
          onClose={() => setEditing(undefined)}
          onCreated={(created) => setEditing({ kind: 'shown', created })}
        />
      ) : null}
      {editing?.kind === 'rename' ? (
        <ApiTokenNameDialog username={username} token={editing.token} onClose={() => setEditing(undefined)} />
      ) : null}
      {editing?.kind === 'shown' ? <ApiTokenShownDialog created={editing.created} onClose={() => setEditing(undefined)} /> : null}
      <DeleteCredentialDialog
        item={deleting}
        title={t('apiTokens.deleteTitle')}
        text={(name) => t('apiTokens.deleteText', { name })}
        remove={remove}
        onClose={() => setDeleting(undefined)}
        onDeleted={({ name }) => pushToast({ id: 'api-token-deleted', kind: 'success', message: t('apiTokens.deleted', { name }) })}
      />
    </div>
  );
}
