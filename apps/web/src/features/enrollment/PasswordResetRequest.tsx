import { PasswordResetRequestBodySchema } from '@palisade/contracts';
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { useZodForm } from '@/lib/use-zod-form';
import { requestPasswordReset } from './password-reset.api';

/** Asks for a reset link. The answer is the same whether or not the address has an account. */
export function PasswordResetRequest() {
  const { t, language } = useTranslation();
  const form = useZodForm(PasswordResetRequestBodySchema, { email: '' });
  const request = useMutation({ mutationFn: (email: string) => requestPasswordReset(email, language) });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = form.validate({ email: form.values.email.trim() });
    if (body) request.mutate(body.email, { onError: (error) => void form.applyServerError(error) });
  };
  if (request.isSuccess)
    return (
      <div className="form-grid" role="status">
        <h1 className="auth-form__title">{t('reset.sentTitle')}</h1>
        <p>{t('reset.sentText', { email: request.variables })}</p>
        <Link to="/login" className="btn btn--secondary">
          {t('reset.backToLogin')}
        </Link>
      </div>
    );
  return (
    <form className="auth-form" onSubmit={onSubmit} noValidate>
      <h1 className="auth-form__title">{t('reset.requestTitle')}</h1>
      <p className="auth-form__subtitle">{t('reset.requestIntro')}</p>
      <FormErrorBanner error={form.formError} />
      <TextField
        label={t('reset.email')}
        name="email"
        type="email"
        autoComplete="email"
        value={form.values.email}
        onValueChange={(v) => form.setValue('email', v)}
        error={form.errors.email}
        autoFocus
      />
      <Button type="submit" variant="primary" className="btn--block" isLoading={request.isPending}>
        {t('reset.requestSubmit')}
      </Button>
      <Link to="/login" className="auth-form__link">
        {t('reset.backToLogin')}
      </Link>
    </form>
  );
}
