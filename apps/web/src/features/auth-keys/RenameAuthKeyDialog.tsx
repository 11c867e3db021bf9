import type { AuthKey } from '@palisade/contracts';
import { RenameDialog } from '@/components/RenameDialog';
import { useTranslation } from '@/i18n/use-translation';
import { useRenameAuthKey } from './auth-keys.queries';

export function RenameAuthKeyDialog({ username, authKey, onClose }: { username: string; authKey: AuthKey; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameAuthKey(username);
  return (
    <RenameDialog
      title={t('authKeys.renameTitle')}
      label={t('authKeys.name')}
      submitLabel={t('authKeys.rename')}
      formId="auth-key-rename"
      name="auth-key-name"
      initialName={authKey.name}
      isSaving={rename.isPending}
      error={rename.isError ? rename.error : undefined}
      onRename={(name) => rename.mutate({ id: authKey.id, name }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
