import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parseExposition, type Sample } from './exposition.js';
import { LocationGauge, RequestSeriesSet } from './text-series.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const key = (s: Sample) =>
  `${s.name}{${Object.entries(s.labels)
    .sort()
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)}}`;
const byKey = (samples: Sample[]) => new Map(samples.map((s) => [key(s), s.value]));

describe('text series', () => {
  it("writes the same samples as prom-client's counter and histogram for the same requests", async () => {
    const registry = new Registry();
    const counter = new Counter({ name: 'req_total', help: 'h', labelNames: ['method', 'route', 'status'], registers: [registry] });
    const histogram = new Histogram({
      name: 'req_seconds',
      help: 'h',
      labelNames: ['method', 'route', 'status'],
      buckets: BUCKETS,
      registers: [registry],
    });
    const ours = new RequestSeriesSet('req_total', 'h', 'req_seconds', 'h', BUCKETS);
    // Edge values (exactly on a bucket bound, above the last), odd routes (quote, backslash, newline).
    const routes = ['/api/v1/user/:username', 'unmatched', '/odd/"quoted"\\path\nline'];
    const values = [0, 0.005, 0.0051, 0.01, 0.3, 1, 2.5, 4.99, 5, 7, 120];
    const observe = (routeList: string[]) => {
      for (const [i, route] of routeList.entries()) {
        for (const [j, seconds] of values.entries()) {
          const method = j % 2 === 0 ? 'GET' : 'POST';
          const status = [200, 404, 500][(i + j) % 3] as number;
          ours.observe(method, route, status, seconds);
          const labels = { method, route, status: String(status) };
          counter.inc(labels);
          histogram.observe(labels, seconds);
        }
      }
    };
    const compare = async () => {
      const theirs = byKey(parseExposition(await registry.metrics()));
      const mine = byKey(parseExposition(ours.text()));
      expect(mine.size).toBe(theirs.size);
      for (const [k, v] of theirs) expect(mine.get(k), k).toBeCloseTo(v, 9);
    };
    observe(routes);
    await compare();
    // Kept lines are dropped by the next observation of their series, and only theirs.
    observe(routes.slice(0, 1));
    await compare();
    observe(['/api/v1/new/:id']);
    await compare();
    const text = ours.text();
    expect(text).toContain('# TYPE req_total counter\n');
    expect(text).toContain('# TYPE req_seconds histogram\n');
    expect(text).toContain('route="/odd/\\"quoted\\"\\\\path\\nline"');
  });

  it('writes HELP and TYPE with no series yet, and one gauge sample per location', async () => {
    const empty = new RequestSeriesSet('a_total', 'A.', 'b_seconds', 'B.', BUCKETS).text();
    expect(parseExposition(empty)).toEqual([]);
    expect(empty).toContain('# TYPE a_total counter');
    const registry = new Registry();
    const gauge = new Gauge({ name: 'g', help: "Gateways' lag.", labelNames: ['location_id'], registers: [registry] });
    gauge.set({ location_id: '1' }, 2);
    gauge.set({ location_id: '7' }, 0);
    const ours = new LocationGauge('g', "Gateways' lag.");
    const first = ours.piece([
      [1, 2],
      [7, 0],
    ]);
    expect(first.toString()).toBe(await registry.metrics());
    // The same values: the same text, not written again; other values: new text.
    expect(
      ours.piece([
        [1, 2],
        [7, 0],
      ]),
    ).toBe(first);
    gauge.reset();
    gauge.set({ location_id: '1' }, 3);
    expect(ours.piece([[1, 3]]).toString()).toBe(await registry.metrics());
  });
});
