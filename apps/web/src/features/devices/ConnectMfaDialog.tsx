import { type FormEvent, useEffect, useId, useState } from 'react';
import { Dialog, FormDialogFooter } from '@/components/Dialog';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { useCopy } from '@/lib/use-copy';
import { useFinishVpnSession, useStartVpnSession } from './vpn-sessions.api';

interface ConnectMfaDialogProps {
  device: { name: string; wireguard_pubkey: string };
  location: { id: number; name: string };
  onClose: () => void;
}

/**
 * "Connect" to an MFA-protected location: asks for an authenticator code, then shows the session's
 * preshared key once, with the line to add to the device's WireGuard config (docs/mfa.md).
 */
export function ConnectMfaDialog({ device, location, onClose }: ConnectMfaDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const copy = useCopy();
  const start = useStartVpnSession();
  const finish = useFinishVpnSession();
  const [challenge, setChallenge] = useState<string | undefined>(undefined);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [psk, setPsk] = useState<string | undefined>(undefined);

  const begin = () => {
    setChallenge(undefined);
    start.mutate(
      { location_id: location.id, device_pubkey: device.wireguard_pubkey },
      { onSuccess: (c) => setChallenge(c.challenge), onError: (e) => setError(problemMessage(t, e)) },
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: one challenge per opening
  useEffect(begin, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!challenge) return;
    if (!/^\d{6}$/.test(code.replace(/\s+/g, ''))) return setError(t('error.auth.invalid_code'));
    setError(undefined);
    finish.mutate(
      { challenge, code },
      {
        onSuccess: (done) => setPsk(done.preshared_key),
        onError: (e) => {
          // A wrong code spends the challenge: get a new one for the next try.
          setError(problemMessage(t, e));
          setCode('');
          if (hasCode(e, 'auth.invalid_code', 'vpn_session.challenge_invalid')) begin();
        },
      },
    );
  };

  const title = t('vpnSessions.connectTitle', { device: device.name, location: location.name });
  if (psk) {
    const line = `PresharedKey = ${psk}`;
    return (
      <Dialog title={title} isOpen onClose={onClose} footer={<Button onClick={onClose}>{t('common.close')}</Button>}>
        <p className="banner banner--warning">{t('vpnSessions.pskOnce')}</p>
        <p>{t('vpnSessions.pskHint', { location: location.name })}</p>
        <fieldset aria-label={t('vpnSessions.pskLine')}>
          <pre className="mono">{line}</pre>
        </fieldset>
        <Button onClick={() => void copy(line)}>{t('vpnSessions.copyLine')}</Button>
      </Dialog>
    );
  }
  return (
    <Dialog
      title={title}
      isOpen
      onClose={onClose}
      footer={<FormDialogFooter formId={formId} submitLabel={t('vpnSessions.verify')} isSaving={finish.isPending} onCancel={onClose} />}
    >
      <form id={formId} className="form-grid" onSubmit={submit} noValidate>
        <p>{t('vpnSessions.codePrompt', { location: location.name })}</p>
        <TextField
          label={t('vpnSessions.code')}
          value={code}
          onValueChange={setCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          disabled={!challenge}
        />
        {error ? (
          <p className="banner banner--error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
