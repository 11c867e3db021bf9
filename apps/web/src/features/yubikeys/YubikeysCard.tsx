import type { AuthKey, Yubikey } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/Badge';
import { CredentialList } from '@/components/CredentialList';
import { DeleteCredentialDialog } from '@/components/DeleteCredentialDialog';
import { authKeysQueryOptions } from '@/features/auth-keys/auth-keys.queries';
import { formatDateTime } from '@/i18n/format';
import { useTranslation } from '@/i18n/use-translation';
import { RenameYubikeyDialog } from './RenameYubikeyDialog';
import { useDeleteYubikey, yubikeysQueryOptions } from './yubikeys.queries';
import '@/features/auth-keys/auth-keys.css';

/** The profile's "YubiKey": provisioned cards, their serial and their keys (auth keys with that serial). */
export function YubikeysCard({ username }: { username: string }) {
  const { t, language } = useTranslation();
  const yubikeys = useQuery(yubikeysQueryOptions(username));
  const keys = useQuery(authKeysQueryOptions(username));
  const remove = useDeleteYubikey(username);
  const [renaming, setRenaming] = useState<Yubikey | undefined>(undefined);
  const [deleting, setDeleting] = useState<Yubikey | undefined>(undefined);
  const keysOf = (serial: string): AuthKey[] => (keys.data ?? []).filter((key) => key.serial === serial);

  const body = (
    <CredentialList
      query={yubikeys}
      label={t('yubikeys.title')}
      emptyText={t('yubikeys.empty')}
      renameText={t('yubikeys.rename')}
      renameLabel={(yubikey) => t('yubikeys.renameNamed', { name: yubikey.name })}
      deleteLabel={(yubikey) => t('yubikeys.deleteNamed', { name: yubikey.name })}
      renderDetails={(yubikey) => {
        const cardKeys = keysOf(yubikey.serial);
        return (
          <>
            <span className="credential-list__name">{yubikey.name}</span>
            <span className="field__hint">
              {t('yubikeys.serial', { serial: yubikey.serial })} ·{' '}
              {t('yubikeys.added', { date: formatDateTime(language, yubikey.created_at) })}
            </span>
            {keys.isSuccess ? <span className="field__hint">{t('yubikeys.keyCount', { count: cardKeys.length })}</span> : null}
            {cardKeys.map((key) => (
              <span key={key.id}>
                <Badge tone="neutral">{t(key.key_type === 'ssh' ? 'authKeys.type.ssh' : 'authKeys.type.gpg')}</Badge>{' '}
                <code className="auth-keys__fingerprint">{key.fingerprint}</code>
              </span>
            ))}
          </>
        );
      }}
      onRename={setRenaming}
      onDelete={setDeleting}
    />
  );

  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('yubikeys.title')}</h2>
      </div>
      <div className="card__body">{body}</div>
      {renaming ? <RenameYubikeyDialog username={username} yubikey={renaming} onClose={() => setRenaming(undefined)} /> : null}
      <DeleteCredentialDialog
        item={deleting}
        title={t('yubikeys.deleteTitle')}
        text={(name) => t('yubikeys.deleteText', { name })}
        remove={remove}
        onClose={() => setDeleting(undefined)}
      />
    </div>
  );
}
