import type { User } from '@palisade/contracts';
import { useState } from 'react';
import { Button } from '@/components/Button';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useMfaReset } from './mfa.mutations';

/** An admin on another user's profile: reset their MFA (every method and the recovery codes go). */
export function ResetMfaCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const reset = useMfaReset(user.username);
  const [isConfirming, setIsConfirming] = useState(false);
  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('profile.mfa')}</h2>
      </div>
      <div className="card__body">
        <p className="field__hint">{user.mfa_enabled ? t('mfa.reset.onHint') : t('mfa.reset.offHint')}</p>
        {user.mfa_enabled ? (
          <Button className="mt-1" variant="danger" onClick={() => setIsConfirming(true)}>
            {t('mfa.reset.action')}
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        title={t('mfa.reset.action')}
        isOpen={isConfirming}
        onCancel={() => setIsConfirming(false)}
        onConfirm={() =>
          reset.mutate(undefined, {
            onSuccess: () => {
              setIsConfirming(false);
              pushToast({ id: 'mfa-reset', kind: 'success', message: t('mfa.reset.done', { name: user.username }) });
            },
          })
        }
        confirmLabel={t('mfa.reset.action')}
        isDanger
        isPending={reset.isPending}
      >
        <p>{t('mfa.reset.text', { name: user.username })}</p>
        {reset.isError ? <p className="banner banner--error">{problemMessage(t, reset.error)}</p> : null}
      </ConfirmDialog>
    </div>
  );
}
