import type { ErrorComponentProps } from '@tanstack/react-router';
import { StateMessage } from '@/components/StateMessage';
import { useTranslation } from '@/i18n/use-translation';
import { hasCode, problemMessage } from '@/lib/problem-message';
import { ModuleDisabledPage } from './ModuleDisabledPage';

export function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  if (hasCode(error, 'module.disabled')) return <ModuleDisabledPage />;
  return <StateMessage kind="error" title={problemMessage(t, error)} onRetry={reset} />;
}
