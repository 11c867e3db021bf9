import type { MfaRequired } from '@palisade/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/Badge';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { SelectField } from '@/components/SelectField';
import { StateMessage } from '@/components/StateMessage';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useAppStore } from '@/features/app/app-store';
import { DisableMfaDialog } from './DisableMfaDialog';
import { EmailSetupDialog } from './EmailSetupDialog';
import { useEmailDisable, useMfaDefault, useRecoveryCodesRegenerate, useTotpDisable } from './mfa.mutations';
import { mfaStatusQueryOptions } from './mfa.queries';
import { RecoveryCodesDialog } from './RecoveryCodesDialog';
import { SecurityKeys } from './SecurityKeys';
import { TotpSetupDialog } from './TotpSetupDialog';
import './mfa.css';

type MfaMethod = MfaRequired['mfa']['methods'][number];

/** The methods a user can turn on from the console today. */
const CONSOLE_METHODS = ['totp', 'email'] as const;
const METHOD_LABELS: Record<MfaMethod, MessageKey> = {
  totp: 'mfa.method.totp',
  email: 'mfa.method.email',
  webauthn: 'mfa.method.webauthn',
};

type Dialog = 'totp' | 'totp-off' | 'email' | 'email-off' | 'regenerate' | 'mfa-off' | undefined;

/** Own profile, "Password and authentication": the second factors, the default one, recovery codes. */
export function MfaCard({ username }: { username: string }) {
  const { t } = useTranslation();
  const status = useQuery(mfaStatusQueryOptions);
  const [dialog, setDialog] = useState<Dialog>(undefined);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | undefined>(undefined);
  const totpOff = useTotpDisable();
  const emailOff = useEmailDisable();
  const isSmtpEnabled = useAppStore((s) => s.appInfo?.smtp_enabled === true);
  const setDefault = useMfaDefault();
  const regenerate = useRecoveryCodesRegenerate();
  const close = () => setDialog(undefined);

  const body = () => {
    if (status.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
    if (status.isError) return <StateMessage kind="error" title={problemMessage(t, status.error)} onRetry={() => void status.refetch()} />;
    const { methods, default_method, mfa_enabled, recovery_codes_left } = status.data;
    return (
      <>
        <ul className="mfa-list">
          {CONSOLE_METHODS.map((method) => {
            const isOn = methods.includes(method);
            // Email codes need outgoing mail: while SMTP is not configured they cannot be turned on.
            const isUnavailable = method === 'email' && !isOn && !isSmtpEnabled;
            return (
              <li key={method} className="mfa-list__item">
                <span className="mfa-list__name">{t(METHOD_LABELS[method])}</span>
                <Badge tone={isOn ? 'success' : 'neutral'}>{isOn ? t('profile.mfaOn') : t('profile.mfaOff')}</Badge>
                {isOn && method === default_method ? <Badge tone="primary">{t('mfa.default')}</Badge> : null}
                {isUnavailable ? <span className="field__hint">{t('mfa.email.noSmtp')}</span> : null}
                <Button
                  size="sm"
                  variant={isOn ? 'danger' : 'secondary'}
                  disabled={isUnavailable}
                  aria-label={`${isOn ? t('mfa.action.disable') : t('mfa.action.enable')}: ${t(METHOD_LABELS[method])}`}
                  onClick={() => setDialog(isOn ? `${method}-off` : method)}
                >
                  {isOn ? t('mfa.action.disable') : t('mfa.action.enable')}
                </Button>
              </li>
            );
          })}
        </ul>
        <SecurityKeys username={username} onRecoveryCodes={setRecoveryCodes} />
        {methods.length > 1 && default_method ? (
          <SelectField
            label={t('mfa.defaultMethod')}
            value={default_method}
            options={methods.map((m) => ({ value: m, label: t(METHOD_LABELS[m]) }))}
            onValueChange={(m) => setDefault.mutate(m)}
          />
        ) : null}
        {mfa_enabled ? (
          <div className="mfa-actions">
            <span className="field__hint">{t('mfa.recovery.left', { count: recovery_codes_left })}</span>
            <Button size="sm" onClick={() => setDialog('regenerate')}>
              {t('mfa.recovery.regenerate')}
            </Button>
            <Button size="sm" variant="danger" onClick={() => setDialog('mfa-off')}>
              {t('mfa.disable.title')}
            </Button>
          </div>
        ) : (
          <p className="field__hint">{t('mfa.offHint')}</p>
        )}
      </>
    );
  };

  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('profile.mfa')}</h2>
      </div>
      <div className="card__body">{body()}</div>
      {dialog === 'totp' ? (
        <TotpSetupDialog
          onClose={close}
          onEnabled={(codes) => {
            close();
            setRecoveryCodes(codes);
          }}
        />
      ) : null}
      {dialog === 'email' ? (
        <EmailSetupDialog
          onClose={close}
          onEnabled={(codes) => {
            close();
            setRecoveryCodes(codes);
          }}
        />
      ) : null}
      <ConfirmDialog
        title={t('mfa.email.disableTitle')}
        isOpen={dialog === 'email-off'}
        onCancel={close}
        onConfirm={() => emailOff.mutate(undefined, { onSuccess: close })}
        confirmLabel={t('mfa.action.disable')}
        isDanger
        isPending={emailOff.isPending}
      >
        <p>{t('mfa.email.disableText')}</p>
        {emailOff.isError ? <p className="banner banner--error">{problemMessage(t, emailOff.error)}</p> : null}
      </ConfirmDialog>
      <ConfirmDialog
        title={t('mfa.totp.disableTitle')}
        isOpen={dialog === 'totp-off'}
        onCancel={close}
        onConfirm={() => totpOff.mutate(undefined, { onSuccess: close })}
        confirmLabel={t('mfa.action.disable')}
        isDanger
        isPending={totpOff.isPending}
      >
        <p>{t('mfa.totp.disableText')}</p>
        {totpOff.isError ? <p className="banner banner--error">{problemMessage(t, totpOff.error)}</p> : null}
      </ConfirmDialog>
      <ConfirmDialog
        title={t('mfa.recovery.regenerate')}
        isOpen={dialog === 'regenerate'}
        onCancel={close}
        onConfirm={() =>
          regenerate.mutate(undefined, {
            onSuccess: (result) => {
              close();
              setRecoveryCodes(result.codes);
            },
          })
        }
        confirmLabel={t('mfa.recovery.regenerate')}
        isPending={regenerate.isPending}
      >
        <p>{t('mfa.recovery.regenerateText')}</p>
        {regenerate.isError ? <p className="banner banner--error">{problemMessage(t, regenerate.error)}</p> : null}
      </ConfirmDialog>
      {dialog === 'mfa-off' ? <DisableMfaDialog onClose={close} /> : null}
      {recoveryCodes ? <RecoveryCodesDialog codes={recoveryCodes} onClose={() => setRecoveryCodes(undefined)} /> : null}
    </div>
  );
}
