import { type FormEvent, useId } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { SetPasswordFormSchema } from './password-forms';
import { useSetPassword } from './users.mutations';

/** An admin sets another user's password (PUT /user/{username}/password). */
export function SetPasswordDialog({ username, onClose }: { username: string; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const setPassword = useSetPassword();
  const form = useZodForm(SetPasswordFormSchema, { new_password: '', repeat: '' });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = form.validate(form.values);
    if (!parsed) return;
    setPassword.mutate(
      { username, new_password: parsed.new_password },
      {
        onSuccess: () => {
          pushToast({ id: `password-set-${username}`, kind: 'success', message: t('users.toast.passwordSet', { username }) });
          onClose();
        },
        onError: (error) => {
          if (!form.applyServerError(error))
            pushToast({ id: `password-set-error-${username}`, kind: 'error', message: problemMessage(t, error) });
        },
      },
    );
  };

  return (
    <Dialog
      title={t('setPassword.title', { username })}
      isOpen
      onClose={onClose}
      size="sm"
      footer={
        <FormDialogFooter formId={formId} submitLabel={t('setPassword.submit')} isSaving={setPassword.isPending} onCancel={onClose} />
      }
    >
      <form id={formId} className="form-grid" onSubmit={onSubmit} noValidate>
        <TextField
          label={t('setPassword.new')}
          type="password"
          autoComplete="new-password"
          value={form.values.new_password}
          onValueChange={(v) => form.setValue('new_password', v)}
          error={form.errors.new_password}
        />
        <TextField
          label={t('setPassword.repeat')}
          type="password"
          autoComplete="new-password"
          value={form.values.repeat}
          onValueChange={(v) => form.setValue('repeat', v)}
          error={form.errors.repeat}
        />
      </form>
    </Dialog>
  );
}
