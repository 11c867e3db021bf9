import type { NetworkStats } from '@palisade/contracts';
import { useMemo } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { formatInterval } from './chart-format';
import { UsageChart } from './UsageChart';
import { bucketWidth, findPeak, formatBytes, toBuckets } from './usage-series';

interface NetworkUsageProps {
  stats: NetworkStats;
  /** When the figures were fetched (the end of the window), epoch ms. */
  updatedAt: number;
  period: number;
  chartLabel: string;
  chartHeight?: number;
}

/**
 * Spec §2: network usage with peak, in and out, above the chart. The peak is one bar of the chart
 * (in + out of the busiest interval), in and out are totals over the period: the labels say so.
 * The colour key is the chart's legend, shown once below it.
 */
export function NetworkUsage({ stats, updatedAt, period, chartLabel, chartHeight }: NetworkUsageProps) {
  const { t, language } = useTranslation();
  const from = Date.parse(stats.from);
  const step = bucketWidth(from, updatedAt, stats.bucket_seconds);
  const buckets = useMemo(() => toBuckets(stats.transfer_series, from, updatedAt, stats.bucket_seconds), [stats, from, updatedAt]);
  const peak = findPeak(buckets);
  const bytes = (v: number) => formatBytes(language, v);
  return (
    <div className="network-usage">
      <dl className="network-usage__figures">
        <div>
          <dt>{t('overview.peakPer', { interval: formatInterval(language, step) })}</dt>
          <dd>{bytes(peak?.total ?? 0)}</dd>
        </div>
        <div>
          <dt>{t('overview.totalIn')}</dt>
          <dd>{bytes(stats.download)}</dd>
        </div>
        <div>
          <dt>{t('overview.totalOut')}</dt>
          <dd>{bytes(stats.upload)}</dd>
        </div>
      </dl>
      <UsageChart
        buckets={buckets}
        spanHours={period}
        label={chartLabel}
        bucketMs={step}
        {...(chartHeight ? { height: chartHeight } : {})}
      />
    </div>
  );
}
