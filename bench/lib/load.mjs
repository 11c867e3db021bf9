// Load generator, run as a separate process so it does not share the event loop of the server
// under test. Input: one JSON argument. Output: one JSON line on stdout (a summary, no samples).
//   { url, connections, duration (s), method?, headers?, body?, bodies?: string[], rate? }
// `rate` caps the overall request rate (req/s, with autocannon's coordinated-omission correction).
// `bodies` rotates request bodies round-robin across all requests (e.g. several login users).
// `cookieSequence` {prefix, from} gives each request its own cookie `<prefix><from + n>` (e.g. one
// single-use session each).
import autocannon from 'autocannon';

const cfg = JSON.parse(process.argv[2] ?? '{}');
if (!cfg.url) {
  process.stderr.write('usage: node load.mjs \'{"url":"http://127.0.0.1:PORT/path","connections":50,"duration":10}\'\n');
  process.exit(2);
}
const duration = Math.min(Number(cfg.duration ?? 10), 120); // hard bound on any load loop
let next = 0;
const options = {
  url: cfg.url,
  connections: cfg.connections ?? 10,
  duration,
  method: cfg.method ?? 'GET',
  headers: cfg.headers ?? {},
  ...(cfg.body ? { body: cfg.body } : {}),
  ...(cfg.rate ? { overallRate: cfg.rate } : {}),
  ...(cfg.cookieSequence
    ? {
        requests: [
          {
            setupRequest(req) {
              req.headers = { ...req.headers, cookie: `${cfg.cookieSequence.prefix}${cfg.cookieSequence.from + next++}` };
              return req;
            },
          },
        ],
      }
    : {}),
  ...(Array.isArray(cfg.bodies) && cfg.bodies.length > 0
    ? {
        requests: [
          {
            setupRequest(req) {
              req.body = cfg.bodies[next++ % cfg.bodies.length];
              return req;
            },
          },
        ],
      }
    : {}),
};
const r = await autocannon(options);
const summary = {
  duration_s: r.duration,
  connections: r.connections,
  requests_total: r.requests.total,
  req_per_s: r.requests.average,
  req_per_s_stddev: r.requests.stddev,
  latency_ms: {
    mean: r.latency.mean,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    p99_9: r.latency.p99_9,
    max: r.latency.max,
  },
  status: { '2xx': r['2xx'], non2xx: r.non2xx },
  errors: r.errors,
  timeouts: r.timeouts,
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
