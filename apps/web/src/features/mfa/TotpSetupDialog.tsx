import type { TotpInit } from '@palisade/contracts';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { StateMessage } from '@/components/StateMessage';
import { QrCode } from '@/features/devices/QrCode';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { isCompleteCode } from './code-input';
import { CodeInput } from './CodeInput';
import { useTotpEnable, useTotpInit } from './mfa.mutations';

/** Scan the QR code (or type the secret) in an authenticator app, then confirm with its first code. */
export function TotpSetupDialog({ onClose, onEnabled }: { onClose: () => void; onEnabled: (recoveryCodes: string[] | undefined) => void }) {
  const { t } = useTranslation();
  const init = useTotpInit();
  const enable = useTotpEnable();
  const [setup, setSetup] = useState<TotpInit | undefined>(undefined);
  const [code, setCode] = useState('');
  const { mutate: start } = init;
  const hasStarted = useRef(false);

  // One secret per dialog: each init replaces the pending secret on the server.
  useEffect(() => {
    if (hasStarted.current) return;
    hasStarted.current = true;
    start(undefined, { onSuccess: setSetup });
  }, [start]);

  const submit = (value: string) => {
    if (!isCompleteCode(value) || enable.isPending) return;
    enable.mutate(value, { onSuccess: (result) => onEnabled(result.recovery_codes) });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(code);
  };

  return (
    <Dialog
      title={t('mfa.totp.setupTitle')}
      isOpen
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" type="submit" form="totp-setup" isLoading={enable.isPending} disabled={!setup}>
            {t('mfa.totp.enable')}
          </Button>
        </>
      }
    >
      {init.isError ? <StateMessage kind="error" title={problemMessage(t, init.error)} /> : null}
      {setup ? (
        <form id="totp-setup" className="form-grid" onSubmit={onSubmit} noValidate>
          <p>{t('mfa.totp.scan')}</p>
          <QrCode text={setup.uri} label={t('mfa.totp.qrLabel')} size={200} />
          <p className="field__hint">{t('mfa.totp.typeSecret')}</p>
          <code className="totp-secret" data-testid="totp-secret">
            {setup.secret}
          </code>
          <CodeInput
            label={t('mfa.totp.firstCode')}
            value={code}
            onValueChange={setCode}
            onComplete={submit}
            error={enable.isError ? problemMessage(t, enable.error) : undefined}
          />
        </form>
      ) : init.isPending ? (
        <StateMessage kind="loading" title={t('common.loading')} />
      ) : null}
    </Dialog>
  );
}
