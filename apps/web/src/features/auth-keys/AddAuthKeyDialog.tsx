import type { AuthKeyType } from '@palisade/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { SelectField } from '@/components/SelectField';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { addKeyErrors } from './auth-key-errors';
import { useAddAuthKey } from './auth-keys.queries';

/** Add an SSH or GPG public key: name, type, the key pasted; the API's refusals under their field. */
export function AddAuthKeyDialog({ username, onClose }: { username: string; onClose: () => void }) {
  const { t } = useTranslation();
  const add = useAddAuthKey(username);
  const [name, setName] = useState('');
  const [keyType, setKeyType] = useState<AuthKeyType>('ssh');
  const [key, setKey] = useState('');
  const keyId = useId();
  const errors = add.isError ? addKeyErrors(t, add.error) : {};
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || key.trim() === '') return;
    add.mutate({ name: name.trim(), key_type: keyType, key: key.trim() }, { onSuccess: onClose });
  };
  return (
    <Dialog
      title={t('authKeys.addTitle')}
      isOpen
      onClose={onClose}
      footer={<FormDialogFooter formId="auth-key-add" submitLabel={t('authKeys.add')} isSaving={add.isPending} onCancel={onClose} />}
    >
      <form id="auth-key-add" className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('authKeys.name')}
          name="auth-key-name"
          value={name}
          onValueChange={setName}
          maxLength={100}
          required
          error={errors.name}
          autoFocus
        />
        <SelectField
          label={t('authKeys.type')}
          value={keyType}
          onValueChange={setKeyType}
          options={[
            { value: 'ssh', label: t('authKeys.type.ssh') },
            { value: 'gpg', label: t('authKeys.type.gpg') },
          ]}
        />
        <div className={['field', 'form-grid__wide', errors.key ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
          <label className="field__label" htmlFor={keyId}>
            {t('authKeys.key')}
          </label>
          <textarea
            id={keyId}
            name="auth-key-key"
            className="input mono auth-keys__textarea"
            rows={keyType === 'gpg' ? 8 : 4}
            spellCheck={false}
            placeholder={keyType === 'ssh' ? 'ssh-ed25519 AAAA…' : '-----BEGIN PGP PUBLIC KEY BLOCK-----'}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            required
            aria-invalid={errors.key ? true : undefined}
            aria-describedby={`${keyId}-hint${errors.key ? ` ${keyId}-error` : ''}`}
          />
          {errors.key ? (
            <p id={`${keyId}-error`} className="field__error" role="alert">
              {errors.key}
            </p>
          ) : null}
          <p id={`${keyId}-hint`} className="field__hint">
            {keyType === 'ssh' ? t('authKeys.keyHint.ssh') : t('authKeys.keyHint.gpg')}
          </p>
        </div>
        <FormErrorBanner className="form-grid__wide">{errors.form}</FormErrorBanner>
      </form>
    </Dialog>
  );
}
