import { type ApiToken, CreateApiTokenBodySchema, type CreatedApiToken } from '@palisade/contracts';
import { type FormEvent, useId } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { useZodForm } from '@/lib/use-zod-form';
import { useCreateApiToken, useRenameApiToken } from './api-tokens.queries';

interface ApiTokenNameDialogProps {
  username: string;
  /** The token to rename; absent to create a new one. */
  token?: ApiToken | undefined;
  onClose: () => void;
  /** Called with the new token (shown once) after a create. */
  onCreated?: (created: CreatedApiToken) => void;
}

/** Create an API token (name only; the token is shown next) or rename one. */
export function ApiTokenNameDialog({ username, token, onClose, onCreated }: ApiTokenNameDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const create = useCreateApiToken(username);
  const rename = useRenameApiToken(username);
  const form = useZodForm(CreateApiTokenBodySchema, { name: token?.name ?? '' });
  const isPending = create.isPending || rename.isPending;

  const onError = (error: unknown) => {
    // name_taken comes back as a field error on `name`.
    if (!form.applyServerError(error))
      pushToast({
        id: 'api-token-error',
        kind: 'error',
        message: token ? t('apiTokens.renameFailed') : t('apiTokens.createFailed'),
      });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(form.values);
    if (!body) return;
    if (token) {
      rename.mutate(
        { id: token.id, name: body.name },
        {
          onSuccess: () => {
            pushToast({ id: `api-token-renamed-${token.id}`, kind: 'success', message: t('apiTokens.renamed', { name: body.name }) });
            onClose();
          },
          onError,
        },
      );
      return;
    }
    create.mutate(body.name, { onSuccess: (created) => onCreated?.(created), onError });
  };

  return (
    <Dialog
      title={token ? t('apiTokens.renameTitle', { name: token.name }) : t('apiTokens.createTitle')}
      isOpen
      onClose={onClose}
      size="sm"
      footer={
        <FormDialogFooter
          formId={formId}
          submitLabel={token ? t('common.save') : t('apiTokens.create')}
          isSaving={isPending}
          onCancel={onClose}
        />
      }
    >
      <form id={formId} className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('apiTokens.name')}
          hint={token ? undefined : t('apiTokens.nameHint')}
          value={form.values.name}
          onValueChange={(v) => form.setValue('name', v)}
          error={form.errors.name}
          autoFocus
        />
      </form>
    </Dialog>
  );
}
