import type { DefaultError, UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';
import { ConfirmDialog } from './ConfirmDialog';

interface Named {
  id: number;
  name: string;
}

/**
 * Asks before a credential of a profile card (API token, authentication key, YubiKey) is
 * deleted; open while `item` is set. The API's refusal shows in the dialog, which stays open.
 */
export function DeleteCredentialDialog<T extends Named>({
  item,
  title,
  text,
  remove,
  onClose,
  onDeleted,
}: {
  item: T | undefined;
  title: string;
  /** The question, naming the credential. */
  text: (name: string) => string;
  /** The delete mutation, by id. */
  remove: UseMutationResult<void, DefaultError, number>;
  onClose: () => void;
  onDeleted?: (item: T) => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={title}
      isOpen={item !== undefined}
      onCancel={() => {
        onClose();
        remove.reset();
      }}
      onConfirm={() => {
        if (!item) return;
        remove.mutate(item.id, {
          onSuccess: () => {
            onClose();
            onDeleted?.(item);
          },
        });
      }}
      confirmLabel={t('common.delete')}
      isDanger
      isPending={remove.isPending}
    >
      <p>{text(item?.name ?? '')}</p>
      {remove.isError ? <p className="banner banner--error">{problemMessage(t, remove.error)}</p> : null}
    </ConfirmDialog>
  );
}
