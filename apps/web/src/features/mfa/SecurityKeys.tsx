import type { SecurityKey } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Dialog } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { securityKeyErrorMessage } from './security-keys';
import { securityKeysQueryOptions, useAddSecurityKey, useDeleteSecurityKey } from './security-keys.mutations';

/** Own profile: the security keys (passkeys), add one with a name, delete one after confirming. */
export function SecurityKeys({ username, onRecoveryCodes }: { username: string; onRecoveryCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const keys = useQuery(securityKeysQueryOptions(username));
  const remove = useDeleteSecurityKey(username);
  const [isAdding, setIsAdding] = useState(false);
  const [toDelete, setToDelete] = useState<SecurityKey | undefined>(undefined);

  return (
    <section className="security-keys" aria-labelledby="security-keys-title">
      <div className="mfa-list__item">
        <h3 id="security-keys-title" className="mfa-list__name">
          {t('mfa.keys.title')}
        </h3>
        <Button size="sm" onClick={() => setIsAdding(true)}>
          {t('mfa.keys.add')}
        </Button>
      </div>
      {keys.isError ? <p className="banner banner--error">{problemMessage(t, keys.error)}</p> : null}
      {keys.data && keys.data.length === 0 ? <p className="field__hint">{t('mfa.keys.none')}</p> : null}
      {keys.data && keys.data.length > 0 ? (
        <ul className="mfa-list" aria-label={t('mfa.keys.title')}>
          {keys.data.map((key) => (
            <li key={key.id} className="mfa-list__item">
              <span className="mfa-list__name">{key.name}</span>
              <Button size="sm" variant="danger" onClick={() => setToDelete(key)}>
                {t('common.delete')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {isAdding ? (
        <AddSecurityKeyDialog
          onClose={() => setIsAdding(false)}
          onAdded={(codes) => {
            setIsAdding(false);
            if (codes) onRecoveryCodes(codes);
          }}
        />
      ) : null}
      <ConfirmDialog
        title={t('mfa.keys.deleteTitle')}
        isOpen={toDelete !== undefined}
        onCancel={() => setToDelete(undefined)}
        onConfirm={() => toDelete && remove.mutate(toDelete.id, { onSuccess: () => setToDelete(undefined) })}
        confirmLabel={t('common.delete')}
        isDanger
        isPending={remove.isPending}
      >
        <p>{t('mfa.keys.deleteText', { name: toDelete?.name ?? '' })}</p>
        {remove.isError ? <p className="banner banner--error">{problemMessage(t, remove.error)}</p> : null}
      </ConfirmDialog>
    </section>
  );
}

function AddSecurityKeyDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (codes: string[] | undefined) => void }) {
  const { t } = useTranslation();
  const add = useAddSecurityKey();
  const [name, setName] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    add.mutate(name.trim(), { onSuccess: (result) => onAdded(result.recovery_codes) });
  };
  return (
    <Dialog
      title={t('mfa.keys.add')}
      isOpen
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" type="submit" form="security-key-add" isLoading={add.isPending} disabled={name.trim() === ''}>
            {t('mfa.keys.register')}
          </Button>
        </>
      }
    >
      <form id="security-key-add" className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField label={t('mfa.keys.name')} name="key-name" value={name} onValueChange={setName} maxLength={64} autoFocus />
        <p className="field__hint">{t('mfa.keys.registerHint')}</p>
        <FormErrorBanner error={add.error} describe={securityKeyErrorMessage} />
      </form>
    </Dialog>
  );
}
