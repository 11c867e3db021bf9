import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkEgressUrl, EgressBlockedError, sendOutgoing } from './index.js';
import { startHttpServer, type TestServer } from './test-servers.js';

// A resolver under test control: the name `rebind.test` answers differently on each query, as a
// rebinding attacker's DNS server would.
const answers: LookupAddress[][] = [];
const lookup = vi.fn(async (_host: string, _opts: unknown) => answers.shift() ?? []);
vi.mock('node:dns/promises', () => ({ lookup: (host: string, opts: unknown) => lookup(host, opts) }));

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  answers.length = 0;
  lookup.mockClear();
});

describe('DNS resolution', () => {
  it('connects to the address it checked and never resolves a second time', async () => {
    const allowed = await startHttpServer((_req, res) => res.end('allowed'), '127.0.0.2');
    // Same port, another address: a second resolution would land here.
    const blocked = await startHttpServer((_req, res) => res.end('blocked'), '127.0.0.3', allowed.port);
    servers.push(allowed, blocked);
    answers.push([{ address: '127.0.0.2', family: 4 }], [{ address: '127.0.0.3', family: 4 }]);
    const result = await sendOutgoing({
      url: `http://rebind.test:${allowed.port}/`,
      body: '{}',
      timeoutMs: 3_000,
      policy: { allowCidrs: ['127.0.0.2/32'] },
    });
    expect(result).toMatchObject({ status: 200, excerpt: 'allowed' });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup.mock.calls[0]?.[1]).toMatchObject({ all: true });
    expect(blocked.connections()).toBe(0);
  });

  it('refuses a name when any one of its addresses is blocked', async () => {
    const server = await startHttpServer((_req, res) => res.end('x'), '127.0.0.2');
    servers.push(server);
    const mixed = [
      { address: '127.0.0.2', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ];
    answers.push(mixed, mixed);
    const policy = { allowCidrs: ['127.0.0.2/32'] };
    await expect(checkEgressUrl(`http://mixed.test:${server.port}/`, policy)).rejects.toMatchObject({
      address: '10.0.0.1',
      reason: 'private',
    });
    const err = await sendOutgoing({ url: `http://mixed.test:${server.port}/`, body: '', timeoutMs: 3_000, policy }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ kind: 'blocked' });
    expect((err as Error).cause).toBeInstanceOf(EgressBlockedError);
    expect(server.connections()).toBe(0);
  });
});
