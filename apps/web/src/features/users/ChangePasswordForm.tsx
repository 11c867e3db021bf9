import type { FormEvent } from 'react';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { ChangePasswordFormSchema } from './password-forms';
import { useChangeOwnPassword } from './users.mutations';

const EMPTY = { old_password: '', new_password: '', repeat: '' };

/** PUT /user/change_password {old_password, new_password}, with a "repeat" check in the console. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const change = useChangeOwnPassword();
  const form = useZodForm(ChangePasswordFormSchema, EMPTY);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = form.validate(form.values);
    if (!parsed) return;
    change.mutate(
      { old_password: parsed.old_password, new_password: parsed.new_password },
      {
        onSuccess: () => {
          form.reset(EMPTY);
          pushToast({ id: 'own-password-changed', kind: 'success', message: t('profile.passwordChanged') });
        },
        onError: (error) => {
          if (hasCode(error, 'auth.invalid_password')) form.setErrors({ old_password: { code: 'invalid' } });
          else if (!form.applyServerError(error)) pushToast({ id: 'own-password-error', kind: 'error', message: problemMessage(t, error) });
        },
      },
    );
  };

  const field = (name: keyof typeof EMPTY, autoComplete: string) => ({
    name,
    type: 'password',
    autoComplete,
    value: form.values[name],
    onValueChange: (v: string) => form.setValue(name, v),
    error: form.errors[name],
  });

  return (
    <form className="form-grid" onSubmit={onSubmit} noValidate aria-label={t('profile.changePassword')}>
      {change.isError && hasCode(change.error, 'auth.invalid_password') ? (
        <p className="banner banner--error" role="alert">
          {t('error.auth.invalid_password')}
        </p>
      ) : null}
      <TextField label={t('profile.oldPassword')} {...field('old_password', 'current-password')} />
      <TextField label={t('profile.newPassword')} hint={t('user.passwordRules')} {...field('new_password', 'new-password')} />
      <TextField label={t('profile.repeatPassword')} {...field('repeat', 'new-password')} />
      <div className="form-actions">
        <Button type="submit" variant="primary" isLoading={change.isPending}>
          {t('profile.changePassword')}
        </Button>
      </div>
    </form>
  );
}
