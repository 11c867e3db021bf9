/** One sample of the Prometheus text exposition format (version 0.0.4). */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;
const COMMENT = /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]*( .*)?$/;

function numberOf(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  // Prometheus reads NaN in any case (Go's ParseFloat); prom-client writes `Nan`.
  if (/^nan$/i.test(text)) return Number.NaN;
  const n = Number(text);
  if (Number.isNaN(n)) throw new Error(`not a sample value: ${text}`);
  return n;
}

/**
 * A strict reader of the text format, enough for tests and benchmarks: every line must be a HELP
 * or TYPE comment or a sample with well-formed labels, or it throws naming the line.
 */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      if (!COMMENT.test(line)) throw new Error(`malformed comment line: ${line}`);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`malformed sample line: ${line}`);
    const [, name = '', body, raw = ''] = m;
    const labels: Record<string, string> = {};
    if (body) {
      LABEL.lastIndex = 0;
      let consumed = 0;
      for (let l = LABEL.exec(body); l; l = LABEL.exec(body)) {
        labels[l[1] ?? ''] = (l[2] ?? '').replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
        consumed = LABEL.lastIndex;
      }
      if (consumed !== body.length) throw new Error(`malformed labels: ${line}`);
    }
    samples.push({ name, labels, value: numberOf(raw) });
  }
  return samples;
}
