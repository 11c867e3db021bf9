import type { Yubikey } from '@palisade/contracts';
import { type FormEvent, useState } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { issuesFromProblem } from '@/lib/field-errors';
import { problemMessage } from '@/lib/problem-message';
import { useRenameYubikey } from './yubikeys.queries';

export function RenameYubikeyDialog({ username, yubikey, onClose }: { username: string; yubikey: Yubikey; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameYubikey(username);
  const [name, setName] = useState(yubikey.name);
  const nameIssue = rename.isError ? issuesFromProblem(rename.error)?.name : undefined;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    rename.mutate({ id: yubikey.id, name: name.trim() }, { onSuccess: onClose });
  };
  return (
    <Dialog
      title={t('yubikeys.renameTitle')}
      isOpen
      onClose={onClose}
      footer={
        <FormDialogFooter formId="yubikey-rename" submitLabel={t('yubikeys.rename')} isSaving={rename.isPending} onCancel={onClose} />
      }
    >
      <form id="yubikey-rename" className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('yubikeys.name')}
          name="yubikey-name"
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
