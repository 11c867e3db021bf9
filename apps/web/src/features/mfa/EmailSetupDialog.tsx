import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { isCompleteCode } from './code-input';
import { CodeInput } from './CodeInput';
import { useEmailEnable, useEmailInit } from './mfa.mutations';

/** Email codes: a code goes to the user's address; typing it back turns the method on. */
export function EmailSetupDialog({
  onClose,
  onEnabled,
}: {
  onClose: () => void;
  onEnabled: (recoveryCodes: string[] | undefined) => void;
}) {
  const { t } = useTranslation();
  const init = useEmailInit();
  const enable = useEmailEnable();
  const [code, setCode] = useState('');
  const { mutate: send } = init;
  const hasSent = useRef(false);
  useEffect(() => {
    if (hasSent.current) return;
    hasSent.current = true;
    send();
  }, [send]);

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
      title={t('mfa.email.setupTitle')}
      isOpen
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" type="submit" form="email-setup" isLoading={enable.isPending} disabled={!init.isSuccess}>
            {t('mfa.totp.enable')}
          </Button>
        </>
      }
    >
      <form id="email-setup" className="form-grid" onSubmit={onSubmit} noValidate>
        {init.isError ? <FormErrorBanner error={init.error} /> : <p>{t('mfa.email.sent')}</p>}
        <CodeInput
          label={t('mfa.email.code')}
          value={code}
          onValueChange={setCode}
          onComplete={submit}
          disabled={!init.isSuccess}
          error={enable.isError ? problemMessage(t, enable.error) : undefined}
        />
      </form>
    </Dialog>
  );
}
