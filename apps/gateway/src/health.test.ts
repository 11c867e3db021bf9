import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentStatus } from './control/agent.js';
import { startHealthServer } from './health.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => close?.());

const status = (over: Partial<AgentStatus> = {}): AgentStatus => ({
  connected: true,
  health: 'synced',
  appliedRevision: 12n,
  epoch: 'e1',
  peerCount: 3,
  lastError: null,
  ...over,
});

async function serve(current: () => AgentStatus) {
  const server = await startHealthServer(0, current, '127.0.0.1');
  close = () => new Promise((r) => server.close(() => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('/health', () => {
  it('reports status, connection, applied revision and peer count', async () => {
    const base = await serve(() => status());
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      connected: true,
      state: 'synced',
      appliedRevision: '12',
      revisionEpoch: 'e1',
      peerCount: 3,
      lastError: null,
    });
  });

  it('stays 200 while disconnected with an applied state (fail-open), 503 with none', async () => {
    let current = status({ connected: false });
    const base = await serve(() => current);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    current = status({ appliedRevision: 0n, health: 'degraded', lastError: 'boom' });
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', lastError: 'boom' });
    expect((await fetch(`${base}/other`)).status).toBe(404);
  });
});
