import { type FormEvent, type ReactNode, useId } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { Dialog, FormDialogFooter } from './Dialog';

/**
 * A dialog around one form (add or edit): the form, labelled by the title, and the footer's
 * Cancel and Save (busy while saving). `onSubmit` runs without the browser's own submission.
 */
export function FormDialog({
  title,
  className = 'form-grid',
  isSaving,
  onClose,
  onSubmit,
  children,
}: {
  title: string;
  /** The form's layout classes. */
  className?: string;
  isSaving: boolean;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog
      title={title}
      isOpen
      onClose={onClose}
      footer={<FormDialogFooter formId={formId} submitLabel={t('common.save')} isSaving={isSaving} onCancel={onClose} />}
    >
      <form id={formId} className={className} onSubmit={submit} noValidate aria-label={title}>
        {children}
      </form>
    </Dialog>
  );
}
