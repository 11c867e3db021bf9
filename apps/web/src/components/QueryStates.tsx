import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { StateMessage } from './StateMessage';

export interface EmptyState {
  title: string;
  hint?: string;
}

/**
 * A list query's loading and error (with Try again) states, its empty state when `empty` returns
 * one for the loaded data, and otherwise `children` with the data.
 */
export function QueryStates<T>({
  query,
  errorTitle,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  errorTitle: string;
  empty: (data: T) => EmptyState | undefined;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <StateMessage kind="loading" title={t('common.loading')} />;
  if (query.isError) return <StateMessage kind="error" title={errorTitle} onRetry={() => void query.refetch()} />;
  const emptyState = empty(query.data);
  if (emptyState) return <StateMessage kind="empty" title={emptyState.title} hint={emptyState.hint} />;
  return children(query.data);
}
