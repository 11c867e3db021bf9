import type { ReactNode } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { Button } from './Button';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  title: string;
  isOpen: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  children: ReactNode;
  confirmLabel: string;
  isDanger?: boolean;
  isPending?: boolean;
}

export function ConfirmDialog({
  title,
  isOpen,
  onCancel,
  onConfirm,
  children,
  confirmLabel,
  isDanger = false,
  isPending = false,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={title}
      isOpen={isOpen}
      onClose={onCancel}
      size="sm"
      isAlert
      footer={
        <>
          <Button onClick={onCancel} data-autofocus>
            {t('common.cancel')}
          </Button>
          <Button variant={isDanger ? 'danger' : 'primary'} onClick={onConfirm} isLoading={isPending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
