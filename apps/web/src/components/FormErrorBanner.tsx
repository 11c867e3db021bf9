import type { ReactNode } from 'react';
import type { Translate } from '@/i18n/translate';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';

/**
 * A form's error as one alert banner: the message the form wrote itself (`children`), else the failed
 * request's `error` in words (`describe`, the problem+json code's i18n text by default). Renders
 * nothing while there is neither, so a form can always place it: `<FormErrorBanner error={save.error} />`.
 */
export function FormErrorBanner({
  error,
  describe = problemMessage,
  className,
  children,
}: {
  /** The failure to show, if any (a mutation's `error`, a form's `formError`). */
  error?: unknown;
  /** Puts the failure in words, for forms whose errors are more than a problem+json code. */
  describe?: (t: Translate, error: unknown) => ReactNode;
  /** Layout classes added to the banner's own (`form-grid__wide`, `card__body`). */
  className?: string;
  /** A message the form wrote itself; shown instead of `error`. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const message = children || (error ? describe(t, error) : null);
  if (!message) return null;
  return (
    <p className={className ? `banner banner--error ${className}` : 'banner banner--error'} role="alert">
      {message}
    </p>
  );
}
