import type { NetworkStats } from '@palisade/contracts';
import { useMemo } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { UsageChart } from './UsageChart';
import { findPeak, formatBytes, toBuckets } from './usage-series';

interface NetworkUsageProps {
  stats: NetworkStats;
  /** When the figures were fetched (the end of the window), epoch ms. */
  updatedAt: number;
  period: number;
  chartLabel: string;
  chartHeight?: number;
}

/** Spec §2: network usage with peak, in and out, above the chart. */
export function NetworkUsage({ stats, updatedAt, period, chartLabel, chartHeight }: NetworkUsageProps) {
  const { t, language } = useTranslation();
  const buckets = useMemo(
    () => toBuckets(stats.transfer_series, Date.parse(stats.from), updatedAt, stats.bucket_seconds),
    [stats, updatedAt],
  );
  const peak = findPeak(buckets);
  const bytes = (v: number) => formatBytes(language, v);
  return (
    <div className="network-usage">
      <dl className="network-usage__figures">
        <div>
          <dt>{t('overview.peak')}</dt>
          <dd>{bytes(peak?.total ?? 0)}</dd>
        </div>
        <div>
          <dt className="usage-chart__key usage-chart__key--in">{t('overview.legend.in')}</dt>
          <dd>{bytes(stats.download)}</dd>
        </div>
        <div>
          <dt className="usage-chart__key usage-chart__key--out">{t('overview.legend.out')}</dt>
          <dd>{bytes(stats.upload)}</dd>
        </div>
      </dl>
      <UsageChart buckets={buckets} spanHours={period} label={chartLabel} {...(chartHeight ? { height: chartHeight } : {})} />
    </div>
  );
}
