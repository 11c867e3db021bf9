import type { FormEvent } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useAuthStore } from '@/features/auth/auth-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { ChangePasswordFormSchema } from './password-forms';
import { useChangeOwnPassword } from './users.mutations';

const EMPTY = { old_password: '', new_password: '', repeat: '' };

/**
 * PUT /user/change_password {old_password, new_password}, with a "repeat" check in the console.
 * Each problem shows once: a wrong current password under that field (not also as a banner),
 * rule violations under the new password, anything else as one banner, all cleared on edit or
 * on the next submit.
 */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const username = useAuthStore((s) => s.user?.username ?? '');
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
          if (hasCode(error, 'auth.invalid_password')) form.setErrors({ old_password: { code: 'password.incorrect' } });
          else form.applyServerError(error);
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
      {/* Password managers file the new password under this account. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <FormErrorBanner error={form.formError} />
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
