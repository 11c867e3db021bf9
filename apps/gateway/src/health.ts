import { createServer, type Server } from 'node:http';
import type { AgentStatus } from './control/agent.js';

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

/** Listens on `port` (0 = any free port); resolves once listening. */
export async function startHealthServer(port: number, status: () => AgentStatus, host = '0.0.0.0'): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
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
