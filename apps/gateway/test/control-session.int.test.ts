import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { Code, type ConnectRouter, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter, createGrpcTransport } from '@connectrpc/connect-node';
import {
  ControlErrorCode,
  type ControlMessage,
  ControlMessageSchema,
  type GatewayMessage,
  GatewayService,
  SnapshotRequestReason,
} from '@palisade/proto';
import { encodeBase64 } from '@palisade/wireguard';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeWireGuard } from '#src/adapters/fake-wireguard.js';
import { createAgent } from '#src/control/agent.js';
import { RECONNECT, SLOW_RECONNECT } from '#src/control/backoff.js';
import { runSession } from '#src/control/session.js';

/**
 * The agent's real gRPC client loop against an in-process gRPC server (connect-node over HTTP/2
 * on 127.0.0.1) that plays a scripted control plane: first stream = hello, snapshot, delta, then
 * the server drops the stream; second stream = hello with the applied revision, a delta with a
 * gap, the snapshot the agent asks for, a stats report. WireGuard is the fake adapter. The real
 * API-side server does not exist yet; this script stands in for it.
 */
const k = (n: number) => encodeBase64(new Uint8Array(32).fill(n));
const iface = { privateKey: k(90), listenPort: 51820, addresses: ['10.8.0.1/24'] };
const peers = [1, 2].map((n) => ({ publicKey: k(n), allowedIps: [`10.8.0.${n + 1}/32`] }));
const snapshot = (revision: bigint) =>
  create(ControlMessageSchema, { kind: { case: 'snapshot', value: { revisionEpoch: 'e1', revision, interface: iface, peers } } });
const delta = (revision: bigint, n: number) =>
  create(ControlMessageSchema, {
    kind: {
      case: 'delta',
      value: {
        revision,
        ops: [
          { op: { case: 'peerUpsert', value: { peer: { publicKey: k(n), allowedIps: [`10.8.0.${n + 1}/32`], persistentKeepalive: n } } } },
        ],
      },
    },
  });

/** Next message of one kind from the gateway; others are recorded and skipped. */
async function nextOf<K extends GatewayMessage['kind']['case']>(it: AsyncIterator<GatewayMessage>, kind: K, seen: GatewayMessage[]) {
  for (;;) {
    const r = await it.next();
    if (r.done) throw new Error(`stream ended while waiting for ${kind}`);
    seen.push(r.value);
    if (r.value.kind.case === kind) return r.value.kind.value as Extract<GatewayMessage['kind'], { case: K }>['value'];
  }
}

let server: http2.Http2Server | undefined;
const sessions = new Set<http2.ServerHttp2Session>();
afterEach(async () => {
  for (const s of sessions) s.destroy(); // the client's HTTP/2 connection would keep close() waiting
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

type ConnectImpl = (requests: AsyncIterable<GatewayMessage>, ctx: HandlerContext) => AsyncGenerator<ControlMessage>;

async function startServer(connect: ConnectImpl): Promise<number> {
  server = http2.createServer(connectNodeAdapter({ routes: (router: ConnectRouter) => router.service(GatewayService, { connect }) }));
  server.on('session', (s) => sessions.add(s));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('control session (gRPC client loop against a scripted server)', () => {
  it('connects with the token, applies and acks, reconnects with its revision, resyncs after a gap', async () => {
    const seen: GatewayMessage[] = [];
    const auth: (string | null)[] = [];
    let streams = 0;
    let finished!: () => void;
    const done = new Promise<void>((r) => {
      finished = r;
    });

    async function* connect(requests: AsyncIterable<GatewayMessage>, ctx: HandlerContext): AsyncGenerator<ControlMessage> {
      auth.push(ctx.requestHeader.get('authorization'));
      const it = requests[Symbol.asyncIterator]();
      const hello = await nextOf(it, 'hello', seen);
      streams++;
      if (streams === 1) {
        expect(hello).toMatchObject({ appliedRevision: 0n, appliedRevisionEpoch: '', gatewayId: 'gw-test' });
        yield snapshot(5n);
        expect((await nextOf(it, 'ack', seen)).revision).toBe(5n);
        yield delta(6n, 1);
        expect((await nextOf(it, 'ack', seen)).revision).toBe(6n);
        return; // the server drops the stream: the agent must reconnect
      }
      const streamStart = seen.length - 1;
      expect(hello).toMatchObject({ appliedRevision: 6n, appliedRevisionEpoch: 'e1' });
      yield delta(8n, 2); // 7 is missing
      const request = await nextOf(it, 'snapshotRequest', seen);
      expect(request).toMatchObject({ reason: SnapshotRequestReason.GAP, appliedRevision: 6n, receivedRevision: 8n });
      yield snapshot(8n);
      expect((await nextOf(it, 'ack', seen)).revision).toBe(8n);
      // The first report of a stream carries every peer; it may arrive before or after the acks.
      const early = seen.slice(streamStart).find((m) => m.kind.case === 'statsReport');
      const stats = early?.kind.case === 'statsReport' ? early.kind.value : await nextOf(it, 'statsReport', seen);
      expect(stats.peers.map((p) => p.publicKey).sort()).toEqual([k(1), k(2)].sort());
      finished();
      await new Promise(() => {}); // hold the stream open until the client goes away
    }

    const port = await startServer(connect);

    const wireguard = createFakeWireGuard();
    const identity = { gatewayId: 'gw-test', gatewayName: 'test', hostname: 'test', agentVersion: '0.0.0', interfaceName: 'wg0' };
    const agent = createAgent({ wireguard, identity });
    const abort = new AbortController();
    const session = runSession({
      agent,
      transport: createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }),
      token: 'tok_test',
      statsIntervalMs: 50,
      signal: abort.signal,
      delay: () => 20,
    });
    await done;
    abort.abort();
    await session;

    expect(auth).toEqual(['Bearer tok_test', 'Bearer tok_test']);
    expect(streams).toBe(2);
    expect(agent.status()).toMatchObject({ appliedRevision: 8n, epoch: 'e1', connected: false, peerCount: 2 });
    // Delta 8 was never applied; the resync snapshot differs from revision 6 only in peer 1's
    // keepalive, so it issues exactly one update.
    expect(wireguard.applied.map((batch) => batch.length)).toEqual([4, 1, 1]);
  }, 20_000);

  it('retries slowly after a revoked token or UNAUTHENTICATED, at once after a server shutdown', async () => {
    const delays: { attempt: number; maxMs: number }[] = [];
    let streams = 0;
    let finished!: () => void;
    const done = new Promise<void>((r) => {
      finished = r;
    });
    const error = (code: ControlErrorCode) => create(ControlMessageSchema, { kind: { case: 'error', value: { code, message: 'test' } } });
    const port = await startServer(async function* (requests) {
      await nextOf(requests[Symbol.asyncIterator](), 'hello', []);
      streams++;
      if (streams === 1) yield error(ControlErrorCode.TOKEN_REVOKED);
      else if (streams === 2) yield error(ControlErrorCode.SERVER_SHUTDOWN);
      else if (streams === 3) throw new ConnectError('bad token', Code.Unauthenticated);
      else {
        finished();
        await new Promise(() => {});
      }
    });
    const agent = createAgent({
      wireguard: createFakeWireGuard(),
      identity: { gatewayId: 'g', gatewayName: 'g', hostname: 'g', agentVersion: '0', interfaceName: 'wg0' },
    });
    const abort = new AbortController();
    const session = runSession({
      agent,
      transport: createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }),
      token: 't',
      statsIntervalMs: 60_000,
      signal: abort.signal,
      delay: (attempt, policy) => {
        delays.push({ attempt, maxMs: policy.maxMs });
        return 10;
      },
    });
    await done;
    abort.abort();
    await session;
    // Stream 1: revoked → slow; stream 2: shutdown → no delay; stream 3: UNAUTHENTICATED → slow.
    expect(delays).toEqual([
      { attempt: 1, maxMs: SLOW_RECONNECT.maxMs },
      { attempt: 3, maxMs: SLOW_RECONNECT.maxMs },
    ]);
    expect(SLOW_RECONNECT.maxMs).toBeGreaterThan(RECONNECT.maxMs);
  }, 20_000);
});
