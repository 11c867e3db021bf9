import type { OAuthClient } from '@palisade/contracts';
import { useId, useState } from 'react';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Dialog } from '@/components/Dialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useCopy } from '@/lib/use-copy';
import { useRegenerateOpenIdAppSecret, useRevealOpenIdAppSecret } from './openid-apps.mutations';

export type SecretDialogMode = 'show' | 'regenerate' | 'new';

interface OpenIdAppSecretDialogProps {
  app: OAuthClient;
  mode: SecretDialogMode;
  /** The secret already known (`new`: just created, or a public app made confidential). */
  secret?: string;
  onClose: () => void;
}

/**
 * "Show secret" and "Regenerate secret": a confirmation first (showing is recorded in the activity
 * log; regenerating breaks the apps that use the old one), then the secret with Copy.
 */
export function OpenIdAppSecretDialog({ app, mode, secret: known, onClose }: OpenIdAppSecretDialogProps) {
  const { t } = useTranslation();
  const [secret, setSecret] = useState(known);
  const reveal = useRevealOpenIdAppSecret();
  const regenerate = useRegenerateOpenIdAppSecret();
  const onError = (error: unknown) =>
    pushToast({ id: `openid-app-secret-error-${app.client_id}`, kind: 'error', message: problemMessage(t, error) });

  if (secret === undefined && mode === 'regenerate') {
    const confirm = () =>
      regenerate.mutate(app.client_id, {
        onSuccess: (answer) => {
          pushToast({ id: `openid-app-regenerated-${app.client_id}`, kind: 'success', message: t('openidApps.toast.regenerated') });
          setSecret(answer.client_secret);
        },
        onError,
      });
    return (
      <ConfirmDialog
        title={t('openidApps.regenerateTitle')}
        isOpen
        onCancel={onClose}
        onConfirm={confirm}
        confirmLabel={t('openidApps.regenerate')}
        isDanger
        isPending={regenerate.isPending}
      >
        <p>{t('openidApps.regenerateMessage', { name: app.name })}</p>
      </ConfirmDialog>
    );
  }
  if (secret === undefined) {
    const confirm = () => reveal.mutate(app.client_id, { onSuccess: (answer) => setSecret(answer.client_secret), onError });
    return (
      <ConfirmDialog
        title={t('openidApps.showSecretTitle')}
        isOpen
        onCancel={onClose}
        onConfirm={confirm}
        confirmLabel={t('openidApps.showSecret')}
        isPending={reveal.isPending}
      >
        <p>{t('openidApps.showSecretMessage', { name: app.name })}</p>
      </ConfirmDialog>
    );
  }
  return <SecretShown app={app} secret={secret} isNew={mode === 'new'} onClose={onClose} />;
}

function SecretShown({ app, secret, isNew, onClose }: { app: OAuthClient; secret: string; isNew: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const copy = useCopy();
  const id = useId();
  return (
    <Dialog
      title={t('openidApps.secretTitle', { name: app.name })}
      isOpen
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          {t('common.close')}
        </Button>
      }
    >
      {isNew ? <p>{t('openidApps.secretNewHint')}</p> : null}
      <div className="field">
        <label className="field__label" htmlFor={`${id}-client-id`}>
          {t('openidApps.clientId')}
        </label>
        <div className="openid-secret">
          <input id={`${id}-client-id`} className="input mono" readOnly value={app.client_id} />
          <Button onClick={() => void copy(app.client_id)}>{t('openidApps.copyClientId')}</Button>
        </div>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-secret`}>
          {t('openidApps.clientSecret')}
        </label>
        <div className="openid-secret">
          <input id={`${id}-secret`} className="input mono" readOnly value={secret} aria-describedby={`${id}-secret-hint`} />
          <Button onClick={() => void copy(secret)}>{t('openidApps.copySecret')}</Button>
        </div>
        <p id={`${id}-secret-hint`} className="field__hint">
          {t('openidApps.secretHint')}
        </p>
      </div>
    </Dialog>
  );
}
