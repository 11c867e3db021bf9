import type { Transport } from '@connectrpc/connect';
import { createGrpcTransport, Http2SessionManager } from '@connectrpc/connect-node';

/**
 * The gRPC transport to the control plane: HTTP/2, TLS for `https://` URLs (verified against the
 * system CAs, or only against `ca` when GATEWAY_CA_FILE is set), cleartext HTTP/2 for `http://`.
 * Our own session manager, so that shutdown closes the connection, and HTTP/2 pings, so that a
 * dead connection (e.g. a NAT that dropped it) is noticed within ~25 s rather than never.
 */
export interface ControlTransport {
  transport: Transport;
  close(): void;
}

export function createControlTransport(url: string, ca?: Buffer): ControlTransport {
  const sessionManager = new Http2SessionManager(url, { pingIntervalMs: 15_000, pingTimeoutMs: 10_000 }, ca ? { ca } : {});
  return {
    transport: createGrpcTransport({ baseUrl: url, sessionManager }),
    close: () => sessionManager.abort(),
  };
}
