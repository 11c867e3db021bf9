import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Button } from '@/components/Button';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';

/**
 * The one clear page for a link that cannot be used (wrong, expired, used, replaced) or a refused
 * step (too many attempts, a device still missing): what happened and where to go, never a trace.
 */
interface InvalidLinkProps {
  error: unknown;
  onRetry?: () => void;
  /** More ways on (password reset: ask for a new link). */
  children?: ReactNode;
}

export function InvalidLink({ error, onRetry, children }: InvalidLinkProps) {
  const { t } = useTranslation();
  const isTokenProblem = hasCode(error, 'enrollment.token_invalid', 'password_reset.token_invalid');
  return (
    <div className="form-grid" role="alert">
      <h1 className="auth-form__title">{isTokenProblem ? t('enrollment.invalid.title') : t('enrollment.invalid.failedTitle')}</h1>
      <p>{problemMessage(t, error)}</p>
      <div className="enrollment-actions">
        {onRetry && !isTokenProblem ? <Button onClick={onRetry}>{t('common.retry')}</Button> : null}
        {children}
        <Link to="/login" className="btn btn--primary">
          {t('enrollment.flow.signIn')}
        </Link>
      </div>
    </div>
  );
}
