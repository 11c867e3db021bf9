import type { ErrorComponentProps } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';

export function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  return <StateMessage kind="error" title={problemMessage(t, error)} onRetry={reset} />;
}
