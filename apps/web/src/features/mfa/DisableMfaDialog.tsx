import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { isCompleteCode } from './code-input';
import { CodeInput } from './CodeInput';
import { useMfaDisable } from './mfa.mutations';
import { mfaStatusQueryOptions } from './mfa.queries';

type Proof = 'password' | 'code';

/**
 * Turning MFA off asks for proof (spec: a fresh second factor or the password): the current
 * password, or, when the authenticator app is on, one of its codes (the API checks TOTP codes only).
 */
export function DisableMfaDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const disable = useMfaDisable();
  const status = useQuery(mfaStatusQueryOptions);
  const canUseCode = status.data?.methods.includes('totp') === true;
  const [proof, setProof] = useState<Proof>('password');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const isCode = canUseCode && proof === 'code';
  const isReady = isCode ? isCompleteCode(code) : password !== '';

  const submit = (value: { password: string } | { code: string }) => {
    if (disable.isPending) return;
    disable.mutate(value, { onSuccess: onClose });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!isReady) return;
    submit(isCode ? { code } : { password });
  };
  const choose = (next: Proof) => {
    setProof(next);
    disable.reset();
  };
  return (
    <Dialog
      title={t('mfa.disable.title')}
      isOpen
      isAlert
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="danger" type="submit" form="mfa-disable" isLoading={disable.isPending} disabled={!isReady}>
            {t('mfa.disable.confirm')}
          </Button>
        </>
      }
    >
      <form id="mfa-disable" className="form-grid" onSubmit={onSubmit} noValidate>
        <p>{canUseCode ? t('mfa.disable.introChoice') : t('mfa.disable.intro')}</p>
        {canUseCode ? (
          <fieldset className="choice-list">
            <legend className="field__label">{t('mfa.disable.proof')}</legend>
            {(['password', 'code'] as const).map((option) => (
              <label key={option} className="choice">
                <input type="radio" name="mfa-disable-proof" value={option} checked={proof === option} onChange={() => choose(option)} />
                <span className="choice__title">{option === 'password' ? t('mfa.disable.withPassword') : t('mfa.disable.withCode')}</span>
              </label>
            ))}
          </fieldset>
        ) : null}
        {isCode ? (
          <CodeInput label={t('mfa.disable.code')} value={code} onValueChange={setCode} onComplete={(c) => submit({ code: c })} autoFocus />
        ) : (
          <TextField
            label={t('login.password')}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onValueChange={setPassword}
            autoFocus
          />
        )}
        <FormErrorBanner error={disable.error} />
      </form>
    </Dialog>
  );
}
