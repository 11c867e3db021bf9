import type { AuthKey } from '@palisade/contracts';
import { type FormEvent, useState } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { issuesFromProblem } from '@/lib/field-errors';
import { problemMessage } from '@/lib/problem-message';
import { useRenameAuthKey } from './auth-keys.queries';

export function RenameAuthKeyDialog({ username, authKey, onClose }: { username: string; authKey: AuthKey; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameAuthKey(username);
  const [name, setName] = useState(authKey.name);
  const nameIssue = rename.isError ? issuesFromProblem(rename.error)?.name : undefined;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    rename.mutate({ id: authKey.id, name: name.trim() }, { onSuccess: onClose });
  };
  return (
    <Dialog
      title={t('authKeys.renameTitle')}
      isOpen
      onClose={onClose}
      footer={
        <FormDialogFooter formId="auth-key-rename" submitLabel={t('authKeys.rename')} isSaving={rename.isPending} onCancel={onClose} />
      }
    >
      <form id="auth-key-rename" className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('authKeys.name')}
          name="auth-key-name"
          value={name}
          onValueChange={setName}
          maxLength={100}
          required
          error={nameIssue}
          autoFocus
        />
        {rename.isError && !nameIssue ? (
          <p className="banner banner--error" role="alert">
            {problemMessage(t, rename.error)}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
