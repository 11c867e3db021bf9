import type { VpnSessionChallenge } from '@palisade/contracts';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { CodeInput } from '@/features/mfa/CodeInput';
import { isCompleteCode } from '@/features/mfa/code-input';
import { securityKeyErrorMessage } from '@/features/mfa/security-keys';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useFinishVpnSession, useFinishVpnSessionWithKey } from './vpn-sessions.api';

type MfaMethod = VpnSessionChallenge['method'];

const LABELS: Record<MfaMethod, MessageKey> = { totp: 'mfa.method.totp', email: 'mfa.method.email', webauthn: 'mfa.method.webauthn' };
const PROMPTS: Record<MfaMethod, MessageKey> = {
  totp: 'vpnSessions.codePrompt',
  email: 'vpnSessions.emailPrompt',
  webauthn: 'vpnSessions.keyPrompt',
};

interface VpnSessionMfaStepProps {
  challenge: VpnSessionChallenge;
  locationName: string;
  /** Starts a new challenge: another method, a new email code, or again after the challenge expired. */
  onStart: (method: MfaMethod) => void;
  isStarting: boolean;
  /** Seconds before another email code may be asked for. */
  resendIn: number;
  onFinished: (started: { preshared_key: string }) => void;
}

/**
 * The owner's second factor for a VPN session: the challenge's method, and a switch to the user's
 * others (the caller keys this by method, so a switch starts clean).
 */
export function VpnSessionMfaStep({ challenge, locationName, onStart, isStarting, resendIn, onFinished }: VpnSessionMfaStepProps) {
  const { t } = useTranslation();
  const finish = useFinishVpnSession();
  const keyFinish = useFinishVpnSessionWithKey();
  const [code, setCode] = useState('');
  const { method } = challenge;

  const onError = (error: unknown) => {
    setCode('');
    // An expired or spent challenge: a fresh one (an email code waits for "Send a new code").
    if (hasCode(error, 'vpn_session.challenge_invalid') && method !== 'email') onStart(method);
  };
  const submit = (value: string) => {
    if (finish.isPending || !isCompleteCode(value)) return;
    finish.mutate({ challenge: challenge.challenge, code: value }, { onSuccess: onFinished, onError });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(code);
  };
  const signWithKey = () => {
    if (!challenge.webauthn) return;
    keyFinish.mutate({ challenge: challenge.challenge, options: challenge.webauthn }, { onSuccess: onFinished, onError });
  };

  const error = finish.isError
    ? problemMessage(t, finish.error)
    : keyFinish.isError
      ? securityKeyErrorMessage(t, keyFinish.error)
      : undefined;
  const others = challenge.methods.filter((m) => m !== method);
  return (
    <div className="form-grid">
      <p>{t(PROMPTS[method], { location: locationName })}</p>
      {method === 'webauthn' ? (
        <Button variant="primary" isLoading={keyFinish.isPending} onClick={signWithKey}>
          {t('mfa.step.useKey')}
        </Button>
      ) : (
        <form className="form-grid" onSubmit={onSubmit} noValidate>
          <CodeInput label={t(LABELS[method])} value={code} onValueChange={setCode} onComplete={submit} disabled={isStarting} autoFocus />
          <Button type="submit" variant="primary" isLoading={finish.isPending} disabled={isStarting}>
            {t('vpnSessions.verify')}
          </Button>
          {method === 'email' ? (
            <Button
              variant="link"
              disabled={resendIn > 0 || isStarting}
              onClick={() => {
                finish.reset();
                onStart('email');
              }}
            >
              {resendIn > 0 ? t('mfa.step.resendIn', { count: resendIn }) : t('mfa.step.resend')}
            </Button>
          ) : null}
        </form>
      )}
      <FormErrorBanner>{error}</FormErrorBanner>
      <MethodSwitch methods={others} onStart={onStart} isStarting={isStarting} />
    </div>
  );
}

/** "Use another method": each choice starts a new challenge with that method. */
export function MethodSwitch({
  methods,
  onStart,
  isStarting,
}: {
  methods: MfaMethod[];
  onStart: (method: MfaMethod) => void;
  isStarting: boolean;
}) {
  const { t } = useTranslation();
  if (methods.length === 0) return null;
  return (
    <nav aria-label={t('mfa.step.otherMethods')}>
      <p className="field__hint">{t('mfa.step.otherMethods')}</p>
      <div className="mfa-actions">
        {methods.map((m) => (
          <Button key={m} variant="link" disabled={isStarting} onClick={() => onStart(m)}>
            {t(LABELS[m])}
          </Button>
        ))}
      </div>
    </nav>
  );
}
