import { LoginBodySchema, type MfaRequired } from '@palisade/contracts';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode } from '@/lib/problem-message';
import { useZodForm } from '@/lib/use-zod-form';
import { isMfaRequired, useLoginMutation } from './auth.mutations';

interface LoginFormProps {
  instance: string;
  onMfaRequired: (mfa: MfaRequired['mfa']) => void;
}

export function LoginForm({ instance, onMfaRequired }: LoginFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLoginMutation();
  const form = useZodForm(LoginBodySchema, { username: '', password: '' });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate(form.values);
    if (!body) return;
    login.mutate(body, {
      onSuccess: (result) => {
        if (isMfaRequired(result)) onMfaRequired(result.mfa);
        else if (result.url) window.location.assign(result.url);
        else void navigate({ to: '/auth/redirect' });
      },
      onError: (error) => {
        form.applyServerError(error);
      },
    });
  };

  // Field problems show under their fields; everything else (bad credentials, lockout) above the form.
  const showBanner = login.isError && !hasCode(login.error, 'validation.failed');
  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate>
      <h1 className="auth-form__title">{t('login.title')}</h1>
      <p className="auth-form__subtitle">{t('login.subtitle', { instance })}</p>
      <FormErrorBanner error={showBanner ? login.error : null} />
      <TextField
        label={t('login.username')}
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={form.values.username}
        onValueChange={(v) => form.setValue('username', v)}
        error={form.errors.username}
        autoFocus
      />
      <TextField
        label={t('login.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        value={form.values.password}
        onValueChange={(v) => form.setValue('password', v)}
        error={form.errors.password}
      />
      <Link to="/password-reset" search={{}} className="auth-form__forgot">
        {t('login.forgotPassword')}
      </Link>
      <Button type="submit" variant="primary" className="btn--block" isLoading={login.isPending}>
        {login.isPending ? t('login.submitting') : t('login.submit')}
      </Button>
    </form>
  );
}
