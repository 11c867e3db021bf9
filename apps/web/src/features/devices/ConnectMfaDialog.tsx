import type { VpnSessionChallenge } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { FormErrorBanner } from '@/components/FormErrorBanner';
import { Loader } from '@/components/Loader';
import { mfaStatusQueryOptions } from '@/features/mfa/mfa.queries';
import { useCooldown } from '@/features/mfa/use-cooldown';
import { useTranslation } from '@/i18n/use-translation';
import { useCopy } from '@/lib/use-copy';
import { MethodSwitch, VpnSessionMfaStep } from './VpnSessionMfaStep';
import { useStartVpnSession } from './vpn-sessions.api';

interface ConnectMfaDialogProps {
  device: { name: string; wireguard_pubkey: string };
  location: { id: number; name: string };
  onClose: () => void;
}

/**
 * "Connect" to an MFA-protected location: the owner passes their default second factor (or picks
 * another of theirs: each choice starts a new challenge), then sees the session's preshared key
 * once, with the line to add to the device's WireGuard config (docs/mfa.md).
 */
export function ConnectMfaDialog({ device, location, onClose }: ConnectMfaDialogProps) {
  const { t } = useTranslation();
  const copy = useCopy();
  const start = useStartVpnSession();
  const cooldown = useCooldown(30);
  const [challenge, setChallenge] = useState<VpnSessionChallenge | undefined>(undefined);
  const [psk, setPsk] = useState<string | undefined>(undefined);

  const begin = (method?: VpnSessionChallenge['method']) =>
    start.mutate(
      { location_id: location.id, device_pubkey: device.wireguard_pubkey, ...(method ? { method } : {}) },
      {
        onSuccess: (next) => {
          setChallenge(next);
          // The API mails a code for an email challenge and takes the next request after 30 s.
          if (next.method === 'email') cooldown.start();
        },
      },
    );
  // biome-ignore lint/correctness/useExhaustiveDependencies: one challenge (for the default method) per opening
  useEffect(() => begin(), []);
  // Without any challenge (the default method failed: no mail server, a code mailed moments ago),
  // the user's methods still offer a way through.
  const isStuck = challenge === undefined && start.isError;
  const status = useQuery({ ...mfaStatusQueryOptions, enabled: isStuck });

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
    <Dialog title={title} isOpen onClose={onClose} footer={<Button onClick={onClose}>{t('common.cancel')}</Button>}>
      <FormErrorBanner error={start.error} />
      {challenge ? (
        <VpnSessionMfaStep
          key={challenge.method}
          challenge={challenge}
          locationName={location.name}
          onStart={begin}
          isStarting={start.isPending}
          resendIn={cooldown.left}
          onFinished={(done) => setPsk(done.preshared_key)}
        />
      ) : start.isPending ? (
        <Loader label={t('common.loading')} />
      ) : isStuck && status.data ? (
        <MethodSwitch methods={status.data.methods} onStart={begin} isStarting={start.isPending} />
      ) : null}
    </Dialog>
  );
}
