import { isIP } from 'node:net';
import type { GrpcUrlSource } from '@palisade/contracts';

/**
 * The gRPC URL shown with a location token (what the agent's `GATEWAY_GRPC_URL` should be):
 * `GRPC_PUBLIC_URL` as it is; else http(s)://<host of PUBLIC_URL>:GRPC_PORT; else the same with the
 * host name the request came in with. The last is only a guess (an admin on `localhost` gets a
 * URL no remote gateway can reach), so the answer says where the URL came from and whether its
 * host is loopback, and the console warns.
 */
export interface GrpcUrlOptions {
  publicGrpcUrl: string | undefined;
  publicUrl: string | undefined;
  grpcPort: number;
  tls: boolean;
}

export interface ResolvedGrpcUrl {
  grpc_url: string;
  grpc_url_source: GrpcUrlSource;
  grpc_url_is_loopback: boolean;
}

/** Host names and addresses that only reach the machine itself. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.') || host === '0.0.0.0';
  if (isIP(host) === 6) return host === '::1' || host === '::' || /^::ffff:127\./.test(host);
  return false;
}

/** The request's host name without its port (`Host` may be `name:port` or `[v6]:port`). */
function hostOnly(requestHostname: string): string {
  const bracketed = /^(\[[^\]]*\])(?::\d+)?$/.exec(requestHostname);
  return bracketed?.[1] ?? requestHostname.replace(/:\d+$/, '');
}

export function resolveGrpcUrl(options: GrpcUrlOptions, requestHostname: string): ResolvedGrpcUrl {
  if (options.publicGrpcUrl) {
    const url = options.publicGrpcUrl;
    return { grpc_url: url, grpc_url_source: 'grpc_public_url', grpc_url_is_loopback: isLoopbackHost(new URL(url).hostname) };
  }
  const source: GrpcUrlSource = options.publicUrl ? 'public_url' : 'request';
  const host = options.publicUrl ? new URL(options.publicUrl).hostname : hostOnly(requestHostname);
  return {
    grpc_url: `${options.tls ? 'https' : 'http'}://${host}:${options.grpcPort}`,
    grpc_url_source: source,
    grpc_url_is_loopback: isLoopbackHost(host),
  };
}
