import { type FormEvent, useId } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { useZodForm } from '@/lib/use-zod-form';
import { PasswordChecklist } from './PasswordChecklist';
import { NewPasswordFormSchema } from './password-form';

interface NewPasswordFormProps {
  title: string;
  intro?: string;
  submitLabel: string;
  isPending: boolean;
  /** `showError` puts a server problem under its field, or above the form when it names none. */
  onSubmit: (password: string, showError: (error: unknown) => boolean) => void;
}

/** Choose a password (enrollment, password reset): new and repeat, with the live §5 checklist. */
export function NewPasswordForm({ title, intro, submitLabel, isPending, onSubmit }: NewPasswordFormProps) {
  const { t } = useTranslation();
  const checklistId = useId();
  const form = useZodForm(NewPasswordFormSchema, { password: '', repeat: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = form.validate(form.values);
    if (parsed) onSubmit(parsed.password, form.applyServerError);
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1 className="auth-form__title">{title}</h1>
      {intro ? <p className="auth-form__subtitle">{intro}</p> : null}
      <FormErrorBanner error={form.formError} />
      <TextField
        label={t('password.new')}
        name="password"
        type="password"
        autoComplete="new-password"
        value={form.values.password}
        onValueChange={(v) => form.setValue('password', v)}
        error={form.errors.password}
        aria-describedby={checklistId}
        autoFocus
      />
      <PasswordChecklist id={checklistId} password={form.values.password} />
      <TextField
        label={t('password.repeat')}
        name="repeat"
        type="password"
        autoComplete="new-password"
        value={form.values.repeat}
        onValueChange={(v) => form.setValue('repeat', v)}
        error={form.errors.repeat}
      />
      <Button type="submit" variant="primary" className="btn--block" isLoading={isPending}>
        {submitLabel}
      </Button>
    </form>
  );
}
