import type { AuthKey } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { CredentialList } from '@/components/CredentialList';
import { DeleteCredentialDialog } from '@/components/DeleteCredentialDialog';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { AddAuthKeyDialog } from './AddAuthKeyDialog';
import { authKeysQueryOptions, useDeleteAuthKey } from './auth-keys.queries';
import { RenameAuthKeyDialog } from './RenameAuthKeyDialog';
import './auth-keys.css';

/** The profile's "Authentication keys": SSH and GPG public keys (docs/ssh-keys.md). */
export function AuthKeysCard({ username }: { username: string }) {
  const { t, language } = useTranslation();
  const keys = useQuery(authKeysQueryOptions(username));
  const remove = useDeleteAuthKey(username);
  const [isAdding, setIsAdding] = useState(false);
  const [renaming, setRenaming] = useState<AuthKey | undefined>(undefined);
  const [deleting, setDeleting] = useState<AuthKey | undefined>(undefined);

  const body = (
    <CredentialList
      query={keys}
      label={t('authKeys.title')}
      emptyText={t('authKeys.empty')}
      renameText={t('authKeys.rename')}
      renameLabel={(key) => t('authKeys.renameNamed', { name: key.name })}
      deleteLabel={(key) => t('authKeys.deleteNamed', { name: key.name })}
      renderDetails={(key) => (
        <>
          <span className="credential-list__name">
            {key.name} <Badge tone="neutral">{t(key.key_type === 'ssh' ? 'authKeys.type.ssh' : 'authKeys.type.gpg')}</Badge>
          </span>
          <code className="auth-keys__fingerprint">{key.fingerprint}</code>
          <span className="field__hint">
            {key.serial ? `${t('authKeys.serial', { serial: key.serial })} · ` : ''}
            {t('authKeys.added', { date: formatDateTime(language, key.created_at) })}
          </span>
        </>
      )}
      onRename={setRenaming}
      onDelete={setDeleting}
    />
  );

  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('authKeys.title')}</h2>
        <Button size="sm" onClick={() => setIsAdding(true)}>
          {t('authKeys.add')}
        </Button>
      </div>
      <div className="card__body">{body}</div>
      {isAdding ? <AddAuthKeyDialog username={username} onClose={() => setIsAdding(false)} /> : null}
      {renaming ? <RenameAuthKeyDialog username={username} authKey={renaming} onClose={() => setRenaming(undefined)} /> : null}
      <DeleteCredentialDialog
        item={deleting}
        title={t('authKeys.deleteTitle')}
        text={(name) => t('authKeys.deleteText', { name })}
        remove={remove}
        onClose={() => setDeleting(undefined)}
      />
    </div>
  );
}
