import type { NetworkStats } from '@palisade/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { NetworkUsage } from './NetworkUsage';
import { QueryStates } from './QueryStates';
import { StatsFigures } from './StatsFigures';

interface UsageSummaryProps {
  stats: UseQueryResult<NetworkStats>;
  period: number;
  chartLabel: string;
  /** Shown at the end of the card's header (a link, a button). */
  action?: ReactNode;
}

/** The "Network usage" card: the figures and the usage chart of the period. */
export function UsageSummary({ stats, period, chartLabel, action }: UsageSummaryProps) {
  const { t } = useTranslation();
  return (
    <section className="card overview-summary" aria-labelledby="overview-summary-title">
      <div className="card__header">
        <h2 id="overview-summary-title" className="card__title">
          {t('overview.networkUsage')}
        </h2>
        {action}
      </div>
      <div className="card__body">
        <QueryStates query={stats} errorTitle="overview.loadError">
          {(data) => (
            <div className="overview-summary__body">
              <StatsFigures stats={data} />
              <NetworkUsage stats={data} updatedAt={stats.dataUpdatedAt} period={period} chartLabel={chartLabel} />
            </div>
          )}
        </QueryStates>
      </div>
    </section>
  );
}
