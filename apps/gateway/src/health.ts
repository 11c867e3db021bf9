import { createServer, type Server } from 'node:http';
import type { AgentStatus } from './control/agent.js';
import type { GatewayMetrics } from './metrics.js';

/**
 * `GET /health`: JSON for probes and operators. 200 while the interface holds an applied state,
 * connected or not (fail-open: the data plane works while the API is unreachable); 503 before
 * the first apply and after a failed one. `connected` says whether the control stream is up.
 */
export interface HealthBody {
  status: 'ok' | 'unavailable';
  connected: boolean;
  state: AgentStatus['health'];
  appliedRevision: string;
  revisionEpoch: string;
  peerCount: number;
  lastError: string | null;
}

export function healthBody(status: AgentStatus): { code: number; body: HealthBody } {
  const ok = status.appliedRevision > 0n;
  return {
    code: ok ? 200 : 503,
    body: {
      status: ok ? 'ok' : 'unavailable',
      connected: status.connected,
      state: status.health,
      // A string: revisions are uint64 and JSON numbers lose precision past 2^53.
      appliedRevision: status.appliedRevision.toString(),
      revisionEpoch: status.epoch,
      peerCount: status.peerCount,
      lastError: status.lastError,
    },
  };
}

/**
 * Listens on `port` (0 = any free port); resolves once listening. With `metrics`, `GET /metrics`
 * answers the Prometheus text too (docs/gateways.md).
 */
export async function startHealthServer(
  port: number,
  status: () => AgentStatus,
  host = '0.0.0.0',
  metrics?: GatewayMetrics,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (metrics && path === '/metrics' && req.method === 'GET') {
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text),
        () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"metrics unavailable"}'),
      );
      return;
    }
    if (path !== '/health' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const { code, body } = healthBody(status());
    res
      .writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}
