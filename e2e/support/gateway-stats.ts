import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';
import { type GatewayMessage, GatewayMessageSchema, GatewayService, type PeerStatsSchema, WireGuardImplementation } from '@palisade/proto';
import { E2E_GRPC_PORT } from './constants';

export interface PeerReport {
  publicKey: string;
  endpoint: string;
  rxBytes: number;
  txBytes: number;
  latestHandshake: Date;
}

export interface FakeGateway {
  /** Sends one stats report once the API has answered the hello with its snapshot. */
  report(peers: readonly PeerReport[]): Promise<void>;
  /** Hangs up (call it after the report is seen stored: the stream must stay open until it is read). */
  close(): void;
}

const toPeer = (p: PeerReport): MessageInitShape<typeof PeerStatsSchema> => ({
  publicKey: p.publicKey,
  endpoint: p.endpoint,
  rxBytes: BigInt(p.rxBytes),
  txBytes: BigInt(p.txBytes),
  latestHandshake: timestampFromDate(p.latestHandshake),
});

/**
 * Plays a gateway of a location over the product's own gRPC endpoint, the path a real agent's
 * counters take: hello with the location token, then stats reports.
 */
export function connectFakeGateway(token: string): FakeGateway {
  const baseUrl = `http://127.0.0.1:${E2E_GRPC_PORT}`;
  const sessionManager = new Http2SessionManager(baseUrl);
  const client = createClient(GatewayService, createGrpcTransport({ baseUrl, sessionManager }));
  const abort = new AbortController();
  const queue: GatewayMessage[] = [];
  let wake: (() => void) | undefined;
  const push = (m: GatewayMessage) => {
    queue.push(m);
    wake?.();
  };
  async function* messages(): AsyncGenerator<GatewayMessage> {
    while (!abort.signal.aborted) {
      const next = queue.shift();
      if (next) yield next;
      else
        await new Promise<void>((resolve) => {
          wake = resolve;
          abort.signal.addEventListener('abort', () => resolve(), { once: true });
        });
    }
  }
  let snapshotSeen: () => void = () => {};
  const snapshot = new Promise<void>((resolve) => {
    snapshotSeen = resolve;
  });
  const hello = {
    gatewayId: 'e2e-gateway',
    gatewayName: 'e2e gateway',
    hostname: 'e2e.example',
    agentVersion: '0.1.0',
    interfaceName: 'wg-e2e',
  };
  push(
    create(GatewayMessageSchema, {
      kind: { case: 'hello', value: { ...hello, wireguardImplementation: WireGuardImplementation.USERSPACE } },
    }),
  );
  void (async () => {
    try {
      for await (const m of client.connect(messages(), { headers: { authorization: `Bearer ${token}` }, signal: abort.signal })) {
        if (m.kind.case === 'snapshot') snapshotSeen();
      }
    } catch {
      // Ended by close().
    }
  })();
  return {
    async report(peers) {
      await snapshot;
      push(create(GatewayMessageSchema, { kind: { case: 'statsReport', value: { peers: peers.map(toPeer) } } }));
    },
    close() {
      abort.abort();
      sessionManager.abort();
    },
  };
}
