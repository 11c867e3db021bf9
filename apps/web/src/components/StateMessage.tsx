import type { ReactNode } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { Button } from './Button';
import { Loader } from './Loader';

/** Empty, loading and error states of a list or page. */
export function StateMessage({
  kind,
  title,
  hint,
  onRetry,
}: {
  kind: 'empty' | 'error' | 'loading';
  title: string;
  hint?: ReactNode;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className={`state state--${kind}`} role={kind === 'error' ? 'alert' : undefined}>
      {kind === 'loading' ? <Loader size={32} /> : null}
      <p className="state__title">{title}</p>
      {hint ? <p className="state__hint">{hint}</p> : null}
      {onRetry ? <Button onClick={onRetry}>{t('common.retry')}</Button> : null}
    </div>
  );
}
