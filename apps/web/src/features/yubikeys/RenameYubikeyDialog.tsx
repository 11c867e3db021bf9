import type { Yubikey } from '@palisade/contracts';
import { RenameDialog } from '@/components/RenameDialog';
import { useTranslation } from '@/i18n/use-translation';
import { useRenameYubikey } from './yubikeys.queries';

export function RenameYubikeyDialog({ username, yubikey, onClose }: { username: string; yubikey: Yubikey; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameYubikey(username);
  return (
    <RenameDialog
      title={t('yubikeys.renameTitle')}
      label={t('yubikeys.name')}
      submitLabel={t('yubikeys.rename')}
      formId="yubikey-rename"
      name="yubikey-name"
      initialName={yubikey.name}
      isSaving={rename.isPending}
      error={rename.isError ? rename.error : undefined}
      onRename={(name) => rename.mutate({ id: yubikey.id, name }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
