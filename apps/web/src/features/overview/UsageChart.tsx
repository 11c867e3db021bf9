import { type ChangeEvent, type KeyboardEvent, type PointerEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@/i18n/use-translation';
import { ChartSvg } from './ChartSvg';
import { layoutChart, tooltipPlacement } from './chart-geometry';
import { formatChartTick, formatChartTime } from './chart-format';
import { estimateLabelWidth } from './chart-ticks';
import { findPeak, formatBytes, type UsageBucket } from './usage-series';
import { useElementWidth } from './use-element-width';
import './overview.css';

interface UsageChartProps {
  buckets: readonly UsageBucket[];
  spanHours: number;
  /** Accessible name of the chart. */
  label: string;
  height?: number;
  /** Width of one bucket, ms; by default the distance between the first two buckets. */
  bucketMs?: number;
  /** IANA time zone of the axis and tooltip; by default the browser's (tests pin one). */
  timeZone?: string;
}

/**
 * Network usage as stacked bars (in below, out on top) with the peak marked. Pointer hover shows
 * a bucket's values; keyboard users get the same through a visually hidden range input (arrows,
 * Home/End move between buckets, its value text reads the bucket), and a summary describes it.
 */
export function UsageChart({ buckets, spanHours, label, height = 220, bucketMs, timeZone }: UsageChartProps) {
  const { t, language } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  const width = useElementWidth(ref, 640);
  const step = bucketMs ?? Math.max((buckets[1]?.start ?? 0) - (buckets[0]?.start ?? 0), 60_000);
  const tick = (ms: number) => formatChartTick(language, ms, spanHours, timeZone);
  // The widest label of the axis (a two-digit day in the longest month name) plus a gap.
  const minLabelSpacing = estimateLabelWidth(tick(Date.UTC(2026, 10, 28, 12))) + 16;
  const geometry = useMemo(
    () => layoutChart(buckets, width, height, { spanHours, bucketMs: step, minLabelSpacing, timeZone }),
    [buckets, width, height, spanHours, step, minLabelSpacing, timeZone],
  );
  const peak = useMemo(() => findPeak(buckets), [buckets]);
  const [active, setActive] = useState<number | undefined>(undefined);
  const summaryId = useId();
  const captionId = useId();
  const bytes = (v: number) => formatBytes(language, v);
  const time = (i: number) => formatChartTime(language, buckets[i]?.start ?? 0, spanHours, timeZone);
  const describe = (i: number) => {
    const b = buckets[i];
    return b ? t('overview.chart.point', { time: time(i), in: bytes(b.in), out: bytes(b.out) }) : '';
  };
  const summary = peak
    ? t('overview.chart.summary', { count: spanHours, peak: bytes(peak.total), time: time(peak.index) })
    : t('overview.chart.empty');
  const current = active ?? peak?.index ?? buckets.length - 1;

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setActive(geometry.indexAt(event.clientX - box.left));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') setActive(undefined);
  };
  const placement = active === undefined ? undefined : tooltipPlacement(geometry, active, peak?.index, width);

  return (
    <figure className="usage-chart" ref={ref} aria-labelledby={captionId}>
      <figcaption id={captionId} className="visually-hidden">
        {label}
      </figcaption>
      <div className="usage-chart__frame" onPointerMove={onPointerMove} onPointerLeave={() => setActive(undefined)}>
        <ChartSvg
          width={width}
          height={height}
          geometry={geometry}
          peak={peak}
          activeIndex={active}
          formatY={bytes}
          formatX={tick}
          peakLabel={peak ? t('overview.chart.peakMarker', { value: bytes(peak.total) }) : ''}
        />
        {peak ? null : <p className="usage-chart__empty">{t('overview.chart.empty')}</p>}
        {placement && active !== undefined ? (
          <div className="usage-chart__tooltip" style={placement} aria-hidden="true">
            <strong>{time(active)}</strong>
            <span className="usage-chart__key usage-chart__key--in">{t('overview.in', { value: bytes(buckets[active]?.in ?? 0) })}</span>
            <span className="usage-chart__key usage-chart__key--out">{t('overview.out', { value: bytes(buckets[active]?.out ?? 0) })}</span>
          </div>
        ) : null}
      </div>
      <input
        type="range"
        className="usage-chart__scrubber visually-hidden"
        min={0}
        max={Math.max(buckets.length - 1, 0)}
        step={1}
        value={current}
        aria-label={label}
        aria-describedby={summaryId}
        aria-valuetext={describe(current)}
        onChange={(e: ChangeEvent<HTMLInputElement>) => setActive(Number(e.target.value))}
        onFocus={() => setActive(current)}
        onBlur={() => setActive(undefined)}
        onKeyDown={onKeyDown}
      />
      <p id={summaryId} className="visually-hidden">
        {summary} {t('overview.chart.keys')}
      </p>
      <ul className="usage-chart__legend" aria-hidden="true">
        <li className="usage-chart__key usage-chart__key--in">{t('overview.legend.in')}</li>
        <li className="usage-chart__key usage-chart__key--out">{t('overview.legend.out')}</li>
      </ul>
    </figure>
  );
}
