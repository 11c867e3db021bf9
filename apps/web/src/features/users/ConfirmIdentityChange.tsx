import type { UpdateUserBody, User } from '@palisade/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { useTranslation } from '@/i18n/use-translation';

interface ConfirmIdentityChangeProps {
  user: User;
  body: UpdateUserBody | undefined;
  isPending: boolean;
  onCancel: () => void;
  onConfirm: (body: UpdateUserBody) => void;
}

/** The warning shown before saving a changed username and/or email (spec §5). */
export function ConfirmIdentityChange({ user, body, isPending, onCancel, onConfirm }: ConfirmIdentityChangeProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={t('profile.confirm.title')}
      isOpen={body !== undefined}
      onCancel={onCancel}
      onConfirm={() => body && onConfirm(body)}
      confirmLabel={t('profile.confirm.submit')}
      isPending={isPending}
    >
      {body && body.username !== user.username ? (
        <p className="banner banner--warning">{t('profile.confirm.username', { from: user.username, to: body.username })}</p>
      ) : null}
      {body && body.email !== user.email ? (
        <p className="banner banner--warning">{t('profile.confirm.email', { to: body.email })}</p>
      ) : null}
    </ConfirmDialog>
  );
}
