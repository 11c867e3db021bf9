import { CreateUserBodySchema } from '@palisade/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { UsernameField } from './UsernameField';
import { useCreateUser } from './users.mutations';

const EMPTY = { username: '', first_name: '', last_name: '', email: '', phone: '', password: '' };

/** POST /user: optional phone and password are sent only when filled in. */
export function AddUserDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const formId = useId();
  const create = useCreateUser();
  const form = useZodForm(CreateUserBodySchema, EMPTY);
  const [banner, setBanner] = useState<string | undefined>(undefined);

  const close = () => {
    form.reset(EMPTY);
    setBanner(undefined);
    create.reset();
    onClose();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setBanner(undefined);
    const { phone, password, ...required } = form.values;
    const body = form.validate({ ...required, ...(phone.trim() ? { phone } : {}), ...(password ? { password } : {}) });
    if (!body) return;
    create.mutate(body, {
      onSuccess: (user) => {
        pushToast({ id: `user-created-${user.username}`, kind: 'success', message: t('users.toast.created', { username: user.username }) });
        close();
      },
      onError: (error) => {
        if (hasCode(error, 'user.username_taken')) form.setErrors({ username: { code: 'username_taken' } });
        else if (hasCode(error, 'user.email_taken')) form.setErrors({ email: { code: 'email_taken' } });
        else if (!form.applyServerError(error)) setBanner(problemMessage(t, error));
      },
    });
  };

  const field = (name: 'first_name' | 'last_name' | 'email' | 'phone' | 'password') => ({
    value: form.values[name],
    onValueChange: (v: string) => form.setValue(name, v),
    error: form.errors[name],
    name,
  });

  return (
    <Dialog
      title={t('addUser.title')}
      isOpen={isOpen}
      onClose={close}
      footer={<FormDialogFooter formId={formId} submitLabel={t('addUser.submit')} isSaving={create.isPending} onCancel={close} />}
    >
      <form id={formId} className="form-grid form-grid--2" onSubmit={onSubmit} noValidate>
        <FormErrorBanner className="form-grid__wide">{banner}</FormErrorBanner>
        <UsernameField
          className="form-grid__wide"
          value={form.values.username}
          onValueChange={(v) => form.setValue('username', v)}
          error={form.errors.username}
        />
        <TextField label={t('user.firstName')} autoComplete="off" {...field('first_name')} />
        <TextField label={t('user.lastName')} autoComplete="off" {...field('last_name')} />
        <TextField label={t('user.email')} type="email" autoComplete="off" {...field('email')} />
        <TextField label={t('user.phone')} type="tel" autoComplete="off" isOptional {...field('phone')} />
        <TextField
          label={t('user.password')}
          type="password"
          autoComplete="new-password"
          isOptional
          className="form-grid__wide"
          hint={t('user.passwordHint')}
          {...field('password')}
        />
      </form>
    </Dialog>
  );
}
