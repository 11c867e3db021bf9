/**
 * Network usage for the overview chart. The API sends traffic samples (`collected_at`, bytes
 * uploaded and downloaded since the previous sample; gateway samples already summed per
 * `collected_at`). The chart shows them in evenly spaced buckets over the whole period, so a
 * quiet hour reads as a flat line at zero rather than as a gap or a stretched neighbour.
 * "In" is download and "out" is upload, as the spec's overview labels them.
 */
export interface UsageSample {
  collected_at: string;
  upload: number;
  download: number;
}

export interface UsageBucket {
  /** Start of the bucket, epoch milliseconds. */
  start: number;
  in: number;
  out: number;
}

export interface UsagePeak extends UsageBucket {
  index: number;
  total: number;
}

const MINUTE = 60_000;
/** Bucket widths the chart may use, smallest first; the first that keeps the count ≤ MAX_BUCKETS wins. */
const BUCKET_WIDTHS = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440].map((m) => m * MINUTE);
export const MAX_BUCKETS = 72;
/** The API buckets its series too (`bucket_seconds`, ≤ ~120 points); its width is kept while the bars stay readable. */
const MAX_SERVER_BUCKETS = 120;

/** Bucket width in ms: the server's when given and not too fine, else the first preset width that fits. */
export function bucketWidth(fromMs: number, toMs: number, serverSeconds?: number): number {
  const span = Math.max(toMs - fromMs, MINUTE);
  const server = (serverSeconds ?? 0) * 1000;
  if (server > 0 && span / server <= MAX_SERVER_BUCKETS) return server;
  const preset = BUCKET_WIDTHS.find((w) => span / w <= MAX_BUCKETS) ?? (BUCKET_WIDTHS.at(-1) as number);
  // A server bucket wider than the preset cannot be split; use a multiple of it instead.
  return server > 0 ? Math.ceil(preset / server) * server : preset;
}

/** Sums samples into aligned buckets covering [from, to]; samples outside the window are ignored. */
export function toBuckets(samples: readonly UsageSample[], fromMs: number, toMs: number, serverSeconds?: number): UsageBucket[] {
  const width = bucketWidth(fromMs, toMs, serverSeconds);
  const first = Math.floor(fromMs / width) * width;
  const count = Math.max(1, Math.floor((toMs - first) / width) + 1);
  const buckets: UsageBucket[] = Array.from({ length: count }, (_, i) => ({ start: first + i * width, in: 0, out: 0 }));
  for (const sample of samples) {
    const at = Date.parse(sample.collected_at);
    if (Number.isNaN(at) || at < fromMs || at > toMs) continue;
    const bucket = buckets[Math.floor((at - first) / width)];
    if (!bucket) continue;
    bucket.in += Math.max(0, sample.download);
    bucket.out += Math.max(0, sample.upload);
  }
  return buckets;
}

/** The bucket with the most traffic (in + out); undefined when nothing flowed. The earliest wins a tie. */
export function findPeak(buckets: readonly UsageBucket[]): UsagePeak | undefined {
  let peak: UsagePeak | undefined;
  buckets.forEach((bucket, index) => {
    const total = bucket.in + bucket.out;
    if (total > 0 && (!peak || total > peak.total)) peak = { ...bucket, index, total };
  });
  return peak;
}

export function sumUsage(samples: readonly UsageSample[]): { in: number; out: number } {
  let download = 0;
  let upload = 0;
  for (const s of samples) {
    download += Math.max(0, s.download);
    upload += Math.max(0, s.upload);
  }
  return { in: download, out: upload };
}

/** Y-axis ticks from 0: 1, 2 or 5 × 10ⁿ steps (in bytes, so 1024-based steps would not help), at most `count` + 1 ticks. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0];
  const rough = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= rough) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) {
    ticks.push(v);
    if (v >= max) break;
  }
  return ticks;
}

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Bytes in decimal units (kB = 1000 B) with the language's number format. */
export function formatBytes(language: string, bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value)} ${UNITS[unit]}`;
}
