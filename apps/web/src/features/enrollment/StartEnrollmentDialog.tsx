import type { EnrollmentStarted, User } from '@palisade/contracts';
import { type FormEvent, useId, useState } from 'react';
import { CheckboxField } from '@/components/CheckboxField';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode } from '@/lib/problem-message';
import { useStartEnrollment } from './enrollment-admin.mutations';
import { EnrollmentLinkDialog } from './EnrollmentLinkDialog';

type Delivery = 'email' | 'manual';

/**
 * Start enrollment for a user: mail the link (SMTP) or get it here once to deliver by hand. A user
 * who already has a password is enrolled again only when the admin ticks the confirmation.
 */
export function StartEnrollmentDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const { t, language } = useTranslation();
  const formId = useId();
  const start = useStartEnrollment();
  const [delivery, setDelivery] = useState<Delivery>('email');
  const [email, setEmail] = useState(user.email);
  const [reEnroll, setReEnroll] = useState(false);
  const [needsReEnroll, setNeedsReEnroll] = useState(user.has_password);
  const [started, setStarted] = useState<EnrollmentStarted | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);

  if (started?.url && started.token)
    return <EnrollmentLinkDialog user={user} link={{ ...started, url: started.url, token: started.token }} onClose={onClose} />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (needsReEnroll && !reEnroll) return setError('confirm');
    const body = {
      send_email: delivery === 'email',
      ...(delivery === 'email' && email.trim() && email.trim() !== user.email ? { email: email.trim() } : {}),
      ...(delivery === 'email' ? { locale: language } : {}),
      ...(reEnroll ? { re_enroll: true as const } : {}),
    };
    start.mutate(
      { username: user.username, body },
      {
        onSuccess: (answer) => {
          if (answer.url && answer.token) return setStarted(answer);
          pushToast({
            id: `enroll-${user.username}`,
            kind: 'success',
            message: t('enrollment.start.sent', { email: answer.email ?? email }),
          });
          onClose();
        },
        onError: (problem) => {
          if (hasCode(problem, 'enrollment.user_has_password')) setNeedsReEnroll(true);
          setError(problem);
        },
      },
    );
  };

  const choice = (value: Delivery, title: string, hint: string) => (
    <label className="choice">
      <input type="radio" name="delivery" value={value} checked={delivery === value} onChange={() => setDelivery(value)} />
      <span>
        <span className="choice__title">{title}</span>
        <span className="choice__hint">{hint}</span>
      </span>
    </label>
  );

  return (
    <Dialog
      title={t('enrollment.start.title', { username: user.username })}
      isOpen
      onClose={onClose}
      footer={<FormDialogFooter formId={formId} submitLabel={t('enrollment.start.submit')} isSaving={start.isPending} onCancel={onClose} />}
    >
      <form id={formId} className="form-grid" onSubmit={onSubmit} noValidate>
        <p>{t('enrollment.start.intro')}</p>
        <fieldset className="choice-list">
          <legend className="field__label">{t('enrollment.start.delivery')}</legend>
          {choice('email', t('enrollment.start.byEmail'), t('enrollment.start.byEmailHint'))}
          {choice('manual', t('enrollment.start.manual'), t('enrollment.start.manualHint'))}
        </fieldset>
        {delivery === 'email' ? (
          <TextField label={t('enrollment.start.email')} name="email" type="email" value={email} onValueChange={setEmail} />
        ) : null}
        {needsReEnroll ? (
          <CheckboxField
            name="re_enroll"
            label={t('enrollment.start.reEnroll')}
            hint={t('enrollment.start.reEnrollHint')}
            checked={reEnroll}
            onCheckedChange={(v) => {
              setReEnroll(v);
              setError(undefined);
            }}
          />
        ) : null}
        <FormErrorBanner error={error}>{error === 'confirm' ? t('enrollment.start.confirmReEnroll') : null}</FormErrorBanner>
      </form>
    </Dialog>
  );
}
