import type { ReactNode } from 'react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { pushToast } from '@/components/toast-store';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';

export type SettleAction = 'apply' | 'discard';

interface SettleCallbacks {
  onSuccess: () => void;
  onError: (error: unknown) => void;
}

interface SettleConfirmDialogProps {
  action: SettleAction;
  /** Prefix of the toasts' ids (`<prefix>-<action>`, `<prefix>-<action>-error`). */
  toastId: string;
  title: string;
  /** The success toast's message. */
  doneMessage: string;
  isPending: boolean;
  /** Runs the deploy or discard mutation with these callbacks. */
  settle: (callbacks: SettleCallbacks) => void;
  onDone: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** Spec §4: deploying or discarding pending ACL changes asks first; a toast tells how it went. */
export function SettleConfirmDialog({
  action,
  toastId,
  title,
  doneMessage,
  isPending,
  settle,
  onDone,
  onClose,
  children,
}: SettleConfirmDialogProps) {
  const { t } = useTranslation();
  const isApply = action === 'apply';
  const confirm = () =>
    settle({
      onSuccess: () => {
        pushToast({ id: `${toastId}-${action}`, kind: 'success', message: doneMessage });
        onDone();
      },
      onError: (error) => pushToast({ id: `${toastId}-${action}-error`, kind: 'error', message: problemMessage(t, error) }),
    });
  return (
    <ConfirmDialog
      title={title}
      isOpen
      onCancel={onClose}
      onConfirm={confirm}
      confirmLabel={t(isApply ? 'acl.deploy.confirm' : 'acl.discard.confirm')}
      isDanger={!isApply}
      isPending={isPending}
    >
      {children}
    </ConfirmDialog>
  );
}
