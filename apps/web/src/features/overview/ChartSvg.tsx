import { type ChartGeometry, peakLabelBaseline } from './chart-geometry';
import type { UsagePeak } from './usage-series';

interface ChartSvgProps {
  width: number;
  height: number;
  geometry: ChartGeometry;
  peak: UsagePeak | undefined;
  activeIndex: number | undefined;
  formatY: (value: number) => string;
  /** Label of a time tick (epoch ms). */
  formatX: (time: number) => string;
  peakLabel: string;
}

/** The drawing only; the container owns interaction and the text alternatives (so this is aria-hidden). */
export function ChartSvg({ width, height, geometry, peak, activeIndex, formatY, formatX, peakLabel }: ChartSvgProps) {
  const { plot, bars, yTicks, xTicks } = geometry;
  const bottom = plot.top + plot.height;
  const peakBar = peak ? bars[peak.index] : undefined;
  const active = activeIndex === undefined ? undefined : bars[activeIndex];
  const anchor =
    peakBar && peakBar.centerX > plot.left + plot.width * 0.8
      ? 'end'
      : peakBar && peakBar.centerX < plot.left + plot.width * 0.2
        ? 'start'
        : 'middle';
  return (
    <svg className="usage-chart__svg" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false">
      <g className="usage-chart__grid">
        {yTicks.map((tick) => (
          <g key={tick.value}>
            <line x1={plot.left} x2={plot.left + plot.width} y1={tick.y} y2={tick.y} />
            <text x={plot.left - 8} y={tick.y} dy="0.32em" textAnchor="end">
              {formatY(tick.value)}
            </text>
          </g>
        ))}
      </g>
      <g className="usage-chart__x-axis">
        <line x1={plot.left} x2={plot.left + plot.width} y1={bottom} y2={bottom} />
        {xTicks.map((tick) => (
          <g key={tick.time}>
            <line className="usage-chart__x-grid" x1={tick.x} x2={tick.x} y1={plot.top} y2={bottom} />
            <line x1={tick.x} x2={tick.x} y1={bottom} y2={bottom + 4} />
            {tick.isLabelled ? (
              <text x={tick.x} y={bottom + 18} textAnchor={tick.x > plot.left + plot.width - 24 ? 'end' : 'middle'}>
                {formatX(tick.time)}
              </text>
            ) : null}
          </g>
        ))}
      </g>
      {active ? <rect className="usage-chart__hover" x={active.x - 2} y={plot.top} width={active.width + 4} height={plot.height} /> : null}
      <g>
        {bars.map((bar, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: buckets are positional and never reorder
          <g key={i}>
            {bar.inHeight > 0 ? (
              <rect className="usage-chart__bar--in" x={bar.x} y={bar.inY} width={bar.width} height={bar.inHeight} />
            ) : null}
            {bar.outHeight > 0 ? (
              <rect className="usage-chart__bar--out" x={bar.x} y={bar.outY} width={bar.width} height={bar.outHeight} />
            ) : null}
          </g>
        ))}
      </g>
      {peakBar ? (
        <g className="usage-chart__peak">
          <line x1={plot.left} x2={plot.left + plot.width} y1={peakBar.outY} y2={peakBar.outY} />
          <circle cx={peakBar.centerX} cy={peakBar.outY} r={4} />
          <text x={peakBar.centerX} y={peakLabelBaseline(peakBar)} textAnchor={anchor}>
            {peakLabel}
          </text>
        </g>
      ) : null}
    </svg>
  );
}
