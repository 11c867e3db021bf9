import { useState } from 'react';
import { Button } from '@/components/Button';
import { useTranslation } from '@/i18n/use-translation';
import { ChangePasswordForm } from './ChangePasswordForm';
import { SetPasswordDialog } from './SetPasswordDialog';

/** Own profile: change password with the current one. An admin on someone else's: set password. */
export function PasswordCard({ username, isSelf, isAdmin }: { username: string; isSelf: boolean; isAdmin: boolean }) {
  const { t } = useTranslation();
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  if (!isSelf && !isAdmin) return null;
  return (
    <div className="card">
      <div className="card__header">
        <h2 className="card__title">{t('profile.security')}</h2>
      </div>
      <div className="card__body">
        {isSelf ? (
          <ChangePasswordForm />
        ) : (
          <>
            <p className="field__hint">{t('profile.setPasswordHint')}</p>
            <Button className="mt-1" onClick={() => setIsDialogOpen(true)}>
              {t('users.action.setPassword')}
            </Button>
            {isDialogOpen ? <SetPasswordDialog username={username} onClose={() => setIsDialogOpen(false)} /> : null}
          </>
        )}
      </div>
    </div>
  );
}
