import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { StateMessage } from '@/components/StateMessage';
import type { MessageKey } from '@/i18n/en';
import { useTranslation } from '@/i18n/use-translation';
import { problemMessage } from '@/lib/problem-message';

interface QueryStatesProps<T> {
  query: UseQueryResult<T>;
  /** Title of the error state (with the problem as its hint and a retry). */
  errorTitle: MessageKey;
  children: (data: T) => ReactNode;
}

/** The loading and error states of one overview query, then its content. */
export function QueryStates<T>({ query, errorTitle, children }: QueryStatesProps<T>) {
  const { t } = useTranslation();
  if (query.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (query.isError) {
    return <StateMessage kind="error" title={t(errorTitle)} hint={problemMessage(t, query.error)} onRetry={() => void query.refetch()} />;
  }
  return <>{children(query.data)}</>;
}
