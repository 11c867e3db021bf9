/**
 * Series the API writes into the Prometheus text format (0.0.4) itself, next to prom-client's
 * registry: the request counter and histogram (thousands of samples with many route templates)
 * and the per-location gateway gauges (two per location). prom-client builds an object per sample
 * and formats its labels at every scrape; these format each series' labels once, keep each
 * series' lines encoded until an observation changes them, and join the pieces with one copy,
 * which makes a scrape several times cheaper in CPU (bench/metrics.ts measures it).
 */

/** A label value escaped as the text format wants it (backslash, double quote, newline). */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function header(name: string, type: string, help: string): Buffer {
  return Buffer.from(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}\n# TYPE ${name} ${type}\n`);
}

const BLANK_LINE = Buffer.from('\n');

interface RequestSeries {
  /** `method="GET",route="/api/v1/user/:username",status="200"`, formatted once. */
  labels: string;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative): index i counts values in (buckets[i-1], buckets[i]]. */
  perBucket: number[];
  /** This series' counter line and histogram lines as last written; dropped by each observation. */
  counterLine: Buffer | undefined;
  histogramLines: Buffer | undefined;
}

/** HTTP requests by method, route template and status: a counter and a latency histogram. */
export class RequestSeriesSet {
  readonly #series = new Map<string, RequestSeries>();
  readonly #le: string[];
  readonly #counterHeader: Buffer;
  readonly #histogramHeader: Buffer;

  constructor(
    readonly counterName: string,
    counterHelp: string,
    readonly histogramName: string,
    histogramHelp: string,
    readonly buckets: readonly number[],
  ) {
    this.#le = buckets.map((b) => `le="${b}"`);
    this.#counterHeader = header(counterName, 'counter', counterHelp);
    this.#histogramHeader = header(histogramName, 'histogram', histogramHelp);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.#series.get(key);
    if (!series) {
      series = {
        labels: `method="${escapeLabelValue(method)}",route="${escapeLabelValue(route)}",status="${status}"`,
        count: 0,
        sum: 0,
        perBucket: new Array<number>(this.buckets.length).fill(0),
        counterLine: undefined,
        histogramLines: undefined,
      };
      this.#series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    series.counterLine = undefined;
    series.histogramLines = undefined;
    const { buckets } = this;
    for (let i = 0; i < buckets.length; i++) {
      if (seconds <= (buckets[i] as number)) {
        series.perBucket[i] = (series.perBucket[i] as number) + 1;
        break;
      }
    }
  }

  /** The counter's and the histogram's text, in pieces (HELP and TYPE lines even with no series yet). */
  pieces(): Buffer[] {
    const counter: Buffer[] = [this.#counterHeader];
    const histogram: Buffer[] = [this.#histogramHeader];
    for (const s of this.#series.values()) {
      s.counterLine ??= Buffer.from(`${this.counterName}{${s.labels}} ${s.count}\n`);
      counter.push(s.counterLine);
      s.histogramLines ??= Buffer.from(this.#histogramText(s));
      histogram.push(s.histogramLines);
    }
    return [...counter, BLANK_LINE, ...histogram];
  }

  text(): string {
    return Buffer.concat(this.pieces()).toString();
  }

  #histogramText(s: RequestSeries): string {
    const bucket = `${this.histogramName}_bucket{${s.labels},`;
    let text = '';
    let cumulative = 0;
    for (let i = 0; i < this.#le.length; i++) {
      cumulative += s.perBucket[i] as number;
      text += `${bucket}${this.#le[i]}} ${cumulative}\n`;
    }
    return `${text}${bucket}le="+Inf"} ${s.count}\n${this.histogramName}_sum{${s.labels}} ${s.sum}\n${this.histogramName}_count{${s.labels}} ${s.count}\n`;
  }
}

/** One gauge per location id, from values read at scrape time; the text is reused while they stay the same. */
export class LocationGauge {
  readonly #header: Buffer;
  #last: { values: (readonly [number, number])[]; text: Buffer } | undefined;

  constructor(
    readonly name: string,
    help: string,
  ) {
    this.#header = header(name, 'gauge', help);
  }

  /** The gauge's text for these (location id, value) pairs. */
  piece(values: (readonly [number, number])[]): Buffer {
    const last = this.#last;
    if (last && last.values.length === values.length && last.values.every(([l, v], i) => values[i]?.[0] === l && values[i]?.[1] === v)) {
      return last.text;
    }
    let text = '';
    for (const [locationId, value] of values) text += `${this.name}{location_id="${locationId}"} ${value}\n`;
    const buffer = Buffer.concat([this.#header, Buffer.from(text)]);
    this.#last = { values, text: buffer };
    return buffer;
  }
}
