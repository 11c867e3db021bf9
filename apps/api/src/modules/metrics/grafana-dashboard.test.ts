import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#src/db/client.js';
import { API_METRIC_NAMES, ApiMetrics } from './api-metrics.js';

const repo = new URL('../../../../../', import.meta.url);
const dashboard = JSON.parse(readFileSync(new URL('docs/grafana/palisade.json', repo), 'utf8')) as unknown;
const gatewaySource = readFileSync(new URL('apps/gateway/src/metrics.ts', repo), 'utf8');

/** Every `expr` of a panel target and every `query` of a template variable, wherever it sits. */
function expressions(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) expressions(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'expr' || key === 'query') && typeof value === 'string' && value.includes('palisade_')) out.push(value);
      else expressions(value, out);
    }
  }
  return out;
}

/** The API's metric names as registered (a registry built without touching a database). */
function apiRegistered(): Map<string, string> {
  const metrics = new ApiMetrics({ database: { kind: 'pglite', db: {} } as unknown as DatabaseHandle });
  return metrics.metricTypes();
}

/** The agent's metric names and types, read from its source (the API does not import the agent). */
function agentRegistered(): Map<string, string> {
  const found = [...gatewaySource.matchAll(/new (Gauge|Counter|Histogram)\(\{\s*name: '(palisade_agent_\w+)'/g)];
  const names = new Map(found.map((m) => [m[2] ?? '', (m[1] ?? '').toLowerCase()] as [string, string]));
  // The agent's process metrics (collectDefaultMetrics with the agent prefix) have the API's names under another prefix.
  for (const [name, type] of apiRegistered()) {
    if (name.startsWith('palisade_api_')) names.set(name.replace('palisade_api_', 'palisade_agent_'), type);
  }
  return names;
}

describe('docs/grafana/palisade.json', () => {
  const registered = new Map([...apiRegistered(), ...agentRegistered()]);
  const exprs = expressions(dashboard);

  it('names only metrics the API or the gateway agent registers', () => {
    expect(exprs.length).toBeGreaterThan(10);
    const unknown: string[] = [];
    for (const expr of exprs) {
      for (const [name] of expr.matchAll(/\bpalisade_\w+/g)) {
        const base = name.replace(/_(bucket|sum|count)$/, '');
        const ok = registered.has(name) || (base !== name && registered.get(base) === 'histogram');
        if (!ok) unknown.push(`${name} in ${expr}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('shows every metric documented in docs/operations.md', () => {
    const used = new Set(exprs.flatMap((e) => [...e.matchAll(/\bpalisade_\w+/g)].map(([n]) => n.replace(/_(bucket|sum|count)$/, ''))));
    const agentNames = [...gatewaySource.matchAll(/'(palisade_agent_[a-z_]+)'/g)].map((m) => m[1] ?? '');
    expect(agentNames.length).toBeGreaterThanOrEqual(6);
    expect([...API_METRIC_NAMES, ...agentNames].filter((n) => !used.has(n))).toEqual([]);
  });

  it('the check itself catches a metric nobody registers', () => {
    expect(registered.has('palisade_http_requests_total')).toBe(true);
    expect(registered.has('palisade_agent_peers')).toBe(true);
    expect(registered.has('palisade_http_requests')).toBe(false);
    expect(registered.get('palisade_agent_apply_duration_seconds')).toBe('histogram');
  });
});
