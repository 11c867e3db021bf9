import { type FormEvent, useState } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useMfaDisable } from './mfa.mutations';

/** Turning MFA off asks for proof: the current password (spec: a fresh second factor or the password). */
export function DisableMfaDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const disable = useMfaDisable();
  const [password, setPassword] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '') return;
    disable.mutate({ password }, { onSuccess: onClose });
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
          <Button variant="danger" type="submit" form="mfa-disable" isLoading={disable.isPending} disabled={password === ''}>
            {t('mfa.disable.confirm')}
          </Button>
        </>
      }
    >
      <form id="mfa-disable" className="form-grid" onSubmit={onSubmit} noValidate>
        <p>{t('mfa.disable.intro')}</p>
        <TextField
          label={t('login.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValueChange={setPassword}
          autoFocus
        />
        {disable.isError ? (
          <p className="banner banner--error" role="alert">
            {problemMessage(t, disable.error)}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
