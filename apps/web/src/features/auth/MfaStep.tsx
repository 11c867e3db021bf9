import type { MfaRequired } from '@palisade/contracts';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { CodeInput } from '@/features/mfa/CodeInput';
import { isCompleteCode } from '@/features/mfa/code-input';
import { securityKeyErrorMessage } from '@/features/mfa/security-keys';
import { useCooldown } from '@/features/mfa/use-cooldown';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { type MfaCodeMethod, useEmailCodeSend, useMfaSignInMutation, useSecurityKeySignInMutation } from './mfa-sign-in.mutations';

/** The second-step methods the console can verify today, in the order offered. */
const SUPPORTED: readonly MfaRequired['mfa']['methods'][number][] = ['totp', 'email', 'webauthn'];
type StepMethod = MfaCodeMethod | 'webauthn';

const LABELS: Record<StepMethod, MessageKey> = {
  totp: 'mfa.method.totp',
  email: 'mfa.method.email',
  webauthn: 'mfa.method.webauthn',
  recovery: 'mfa.method.recovery',
};
const HINTS: Record<StepMethod, MessageKey> = {
  totp: 'mfa.step.totpHint',
  email: 'mfa.step.emailHint',
  webauthn: 'mfa.step.webauthnHint',
  recovery: 'mfa.step.recoveryHint',
};

/** The user's methods the console offers, the default first; a recovery code is always possible. */
export function stepMethods(mfa: MfaRequired['mfa']): StepMethod[] {
  const offered = SUPPORTED.filter((m) => mfa.methods.includes(m)) as StepMethod[];
  const first = offered.find((m) => m === mfa.default_method);
  return [...(first ? [first] : []), ...offered.filter((m) => m !== first), 'recovery'];
}

/** The second login step (spec §2): verify with the default method, or pick another one. */
export function MfaStep({ mfa, onBack }: { mfa: MfaRequired['mfa']; onBack: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const methods = stepMethods(mfa);
  const [method, setMethod] = useState<StepMethod>(methods[0] ?? 'recovery');
  const [code, setCode] = useState('');
  const signIn = useMfaSignInMutation();
  const keySignIn = useSecurityKeySignInMutation();
  const emailSend = useEmailCodeSend();
  const cooldown = useCooldown(30);
  const sendEmail = () => {
    cooldown.start();
    emailSend.mutate();
  };
  // Choosing the email method (or starting with it) sends a code at once.
  const sentFor = useRef<StepMethod | undefined>(undefined);
  useEffect(() => {
    if (method !== 'email' || sentFor.current === 'email') return;
    sentFor.current = 'email';
    sendEmail();
  });
  const onSignedIn = (result: { url?: string | undefined }) => {
    if (result.url) window.location.assign(result.url);
    else void navigate({ to: '/auth/redirect' });
  };

  const submit = (value: string) => {
    if (signIn.isPending || method === 'webauthn') return;
    if (method !== 'recovery' && !isCompleteCode(value)) return;
    if (method === 'recovery' && value.trim() === '') return;
    signIn.mutate({ method, code: value }, { onSuccess: onSignedIn });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(code);
  };
  const choose = (next: StepMethod) => {
    setMethod(next);
    setCode('');
    signIn.reset();
    keySignIn.reset();
  };

  const error = signIn.isError
    ? problemMessage(t, signIn.error)
    : method === 'email' && emailSend.isError
      ? problemMessage(t, emailSend.error)
      : keySignIn.isError
        ? securityKeyErrorMessage(t, keySignIn.error)
        : undefined;
  return (
    <section className="auth-form" aria-labelledby="mfa-title">
      <h1 id="mfa-title" className="auth-form__title">
        {t('mfa.title')}
      </h1>
      <p className="auth-form__subtitle">{t(HINTS[method])}</p>
      {method === 'webauthn' ? (
        <>
          <FormErrorBanner>{error}</FormErrorBanner>
          <Button
            variant="primary"
            className="btn--block"
            isLoading={keySignIn.isPending}
            onClick={() => keySignIn.mutate(undefined, { onSuccess: onSignedIn })}
          >
            {t('mfa.step.useKey')}
          </Button>
        </>
      ) : (
        <form className="auth-form" onSubmit={onSubmit} noValidate>
          {method === 'recovery' ? (
            <TextField
              label={t(LABELS.recovery)}
              name="recovery-code"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={code}
              onValueChange={setCode}
              autoFocus
            />
          ) : (
            <CodeInput label={t(LABELS[method])} value={code} onValueChange={setCode} onComplete={submit} autoFocus />
          )}
          <FormErrorBanner>{error}</FormErrorBanner>
          <Button type="submit" variant="primary" className="btn--block" isLoading={signIn.isPending}>
            {t('mfa.step.verify')}
          </Button>
          {method === 'email' ? (
            <Button variant="link" disabled={cooldown.left > 0 || emailSend.isPending} onClick={sendEmail}>
              {cooldown.left > 0 ? t('mfa.step.resendIn', { count: cooldown.left }) : t('mfa.step.resend')}
            </Button>
          ) : null}
        </form>
      )}
      {methods.length > 1 ? (
        <nav aria-label={t('mfa.step.otherMethods')}>
          <p className="field__hint">{t('mfa.step.otherMethods')}</p>
          <ul className="mfa-methods">
            {methods
              .filter((m) => m !== method)
              .map((m) => (
                <li key={m} className="mfa-methods__item">
                  <button type="button" className="btn btn--link" onClick={() => choose(m)}>
                    {t(LABELS[m])}
                  </button>
                </li>
              ))}
          </ul>
        </nav>
      ) : null}
      <button type="button" className="btn btn--link" onClick={onBack}>
        ← {t('mfa.back')}
      </button>
    </section>
  );
}
