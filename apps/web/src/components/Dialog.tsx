import { type ReactNode, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '@/i18n/use-translation';
import { useFocusTrap } from './use-focus-trap';
import { Button } from './Button';

interface DialogProps {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** For confirmations: role alertdialog. */
  isAlert?: boolean;
  /**
   * For a secret shown once: Escape, the backdrop and × ask first, with this message, before
   * `onClose`. The caller's own footer button (an explicit "I have saved it") closes directly.
   */
  confirmClose?: string | undefined;
}

/** A modal dialog: focus trapped inside, Escape or the backdrop closes it. */
export function Dialog({ title, isOpen, onClose, children, footer, size = 'md', isAlert = false, confirmClose }: DialogProps) {
  if (!isOpen) return null;
  return createPortal(
    <DialogPanel title={title} onClose={onClose} footer={footer} size={size} isAlert={isAlert} confirmClose={confirmClose}>
      {children}
    </DialogPanel>,
    document.body,
  );
}

function DialogPanel({ title, onClose, children, footer, size, isAlert, confirmClose }: Omit<DialogProps, 'isOpen'>) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const [isConfirmingClose, setIsConfirmingClose] = useState(false);
  const requestClose = confirmClose ? () => setIsConfirmingClose(true) : onClose;
  useFocusTrap(ref, true, requestClose);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop click is a mouse shortcut; Escape and the close button are the keyboard paths
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && requestClose()}>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is dialog or alertdialog, both support aria-modal */}
      <div
        ref={ref}
        className={`dialog dialog--${size}`}
        role={isAlert ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={isAlert ? bodyId : undefined}
        tabIndex={-1}
      >
        <header className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          <button type="button" className="icon-btn" onClick={requestClose} aria-label={t('common.closeDialog')} data-skip-autofocus>
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <div id={bodyId} className="dialog__body">
          {children}
        </div>
        {footer ? <footer className="dialog__footer">{footer}</footer> : null}
      </div>
      {confirmClose ? (
        <Dialog
          title={t('dialog.confirmClose.title')}
          isOpen={isConfirmingClose}
          onClose={() => setIsConfirmingClose(false)}
          size="sm"
          isAlert
          footer={
            <>
              <Button onClick={() => setIsConfirmingClose(false)} data-autofocus>
                {t('dialog.confirmClose.keepOpen')}
              </Button>
              <Button variant="danger" onClick={onClose}>
                {t('dialog.confirmClose.close')}
              </Button>
            </>
          }
        >
          <p>{confirmClose}</p>
        </Dialog>
      ) : null}
    </div>
  );
}

interface FormDialogFooterProps {
  /** The id of the dialog's form, which the submit button submits. */
  formId: string;
  submitLabel: string;
  isSaving: boolean;
  onCancel: () => void;
}

/** The footer of a dialog holding a form: Cancel, and the submit button (busy while saving). */
export function FormDialogFooter({ formId, submitLabel, isSaving, onCancel }: FormDialogFooterProps) {
  const { t } = useTranslation();
  return (
    <>
      <Button onClick={onCancel}>{t('common.cancel')}</Button>
      <Button type="submit" form={formId} variant="primary" isLoading={isSaving}>
        {submitLabel}
      </Button>
    </>
  );
}
