import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { type ControlMessage, ControlMessageSchema, type GatewayMessage, GatewayService } from '@palisade/proto';
import { encodeBase64 } from '@palisade/wireguard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeWireGuard } from '#src/adapters/fake-wireguard.js';
import { createAgent } from '#src/control/agent.js';
import { runSession } from '#src/control/session.js';
import { createControlTransport } from '#src/control/transport.js';
import { readCaFile } from '#src/preflight.js';
import { createTestPki, type TestPki } from './support/tls.js';

/**
 * GATEWAY_CA_FILE: the agent's real transport (the one main.ts uses) against a gRPC server over
 * TLS whose certificate a private CA signed. With that CA the agent connects, applies and acks;
 * without it (system CAs only) the TLS handshake is refused and nothing is applied.
 */
const k = (n: number) => encodeBase64(new Uint8Array(32).fill(n));
const snapshot = create(ControlMessageSchema, {
  kind: {
    case: 'snapshot',
    value: {
      revisionEpoch: 'tls',
      revision: 3n,
      interface: { privateKey: k(90), listenPort: 51820, addresses: ['10.8.0.1/24'] },
      peers: [{ publicKey: k(1), allowedIps: ['10.8.0.2/32'] }],
    },
  },
});

let pki: TestPki;
let server: http2.Http2SecureServer;
let port: number;
const sessions = new Set<http2.ServerHttp2Session>();
const acked: bigint[] = [];

async function* connect(requests: AsyncIterable<GatewayMessage>): AsyncGenerator<ControlMessage> {
  const it = requests[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done || first.value.kind.case !== 'hello') throw new Error('expected a hello');
  yield snapshot;
  for (let r = await it.next(); !r.done; r = await it.next()) if (r.value.kind.case === 'ack') acked.push(r.value.kind.value.revision);
}

beforeAll(async () => {
  pki = createTestPki();
  server = http2.createSecureServer(
    { key: pki.serverKey, cert: pki.serverCert },
    connectNodeAdapter({ routes: (router: ConnectRouter) => router.service(GatewayService, { connect }) }),
  );
  server.on('session', (s) => sessions.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const s of sessions) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  pki.remove();
});

function startAgent(ca: Buffer | undefined, log: (m: string) => void) {
  const wireguard = createFakeWireGuard();
  const agent = createAgent({
    wireguard,
    identity: { gatewayId: 'tls', gatewayName: 'tls', hostname: 'tls', agentVersion: '0', interfaceName: 'wg0' },
  });
  const control = createControlTransport(`https://127.0.0.1:${port}`, ca);
  const abort = new AbortController();
  const session = runSession({
    agent,
    transport: control.transport,
    token: 't',
    statsIntervalMs: 60_000,
    signal: abort.signal,
    log,
    delay: () => 60_000,
  });
  const stop = async () => {
    abort.abort();
    await session;
    control.close();
  };
  return { wireguard, agent, stop };
}

const until = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('TLS to the control plane (GATEWAY_CA_FILE)', () => {
  it('connects, applies and acks when the CA file signs the server certificate', async () => {
    const { wireguard, agent, stop } = startAgent(readCaFile(pki.caFile), () => {});
    try {
      await until(() => acked.includes(3n), 10_000);
      expect(agent.status()).toMatchObject({ appliedRevision: 3n, epoch: 'tls', connected: true });
      expect(wireguard.state.peers.size).toBe(1);
    } finally {
      await stop();
    }
  });

  it('refuses the server without that CA, and applies nothing', async () => {
    const logs: string[] = [];
    const { wireguard, stop } = startAgent(undefined, (m) => logs.push(m));
    try {
      await until(() => logs.some((l) => l.startsWith('stream failed')), 10_000);
      expect(logs.find((l) => l.startsWith('stream failed'))).toMatch(/certificate/i);
      expect(wireguard.applied).toEqual([]);
    } finally {
      await stop();
    }
  });
});
