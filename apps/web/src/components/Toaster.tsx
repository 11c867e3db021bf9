import { useTranslation } from '@/i18n/use-translation';
import { useToastStore } from './toast-store';

/** Renders the toast stack (success/info/warning/error, message and optional sub-message). */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  return (
    <section className="toaster" aria-label={t('toast.region')}>
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast--${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          data-toast-id={toast.id}
        >
          <span className="toast__icon" aria-hidden="true" />
          <div className="toast__text">
            <p className="toast__message">{toast.message}</p>
            {toast.subMessage ? <p className="toast__sub">{toast.subMessage}</p> : null}
            {toast.actions?.length ? (
              <div className="toast__actions">
                {toast.actions.map((action) =>
                  action.href ? (
                    <a key={action.label} className="btn btn--link btn--sm" href={action.href} target="_blank" rel="noopener noreferrer">
                      {action.label}
                    </a>
                  ) : (
                    <button key={action.label} type="button" className="btn btn--secondary btn--sm" onClick={action.onClick}>
                      {action.label}
                    </button>
                  ),
                )}
              </div>
            ) : null}
          </div>
          {toast.actions?.length ? null : (
            <button type="button" className="icon-btn icon-btn--sm" onClick={() => dismiss(toast.id)} aria-label={t('toast.dismiss')}>
              <span aria-hidden="true">×</span>
            </button>
          )}
        </div>
      ))}
    </section>
  );
}
