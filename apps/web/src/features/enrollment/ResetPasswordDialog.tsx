import type { User } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { useAdminPasswordReset } from './password-reset.mutations';

/** An admin mails a user a password reset link (valid 1 hour); the current password keeps working until it is used. */
export function ResetPasswordDialog({ user, onClose }: { user: Pick<User, 'username' | 'email'>; onClose: () => void }) {
  const { t, language } = useTranslation();
  const reset = useAdminPasswordReset();
  const confirm = () =>
    reset.mutate(
      { username: user.username, locale: language },
      {
        onSuccess: (sent) => {
          pushToast({ id: `reset-${user.username}`, kind: 'success', message: t('enrollment.reset.sent', { email: sent.email }) });
          onClose();
        },
        onError: (error) => pushToast({ id: `reset-${user.username}`, kind: 'error', message: problemMessage(t, error) }),
      },
    );
  return (
    <ConfirmDialog
      title={t('enrollment.reset.title', { username: user.username })}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t('enrollment.reset.submit')}
      isPending={reset.isPending}
    >
      <p>{t('enrollment.reset.text', { email: user.email })}</p>
    </ConfirmDialog>
  );
}
