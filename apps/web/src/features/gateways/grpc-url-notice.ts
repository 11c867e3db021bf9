import type { GatewayToken } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';

export interface GrpcUrlNotice {
  kind: 'warning' | 'info';
  /** What is wrong, then which server setting fixes it. */
  messages: readonly [MessageKey, MessageKey];
}

/**
 * What the setup page says about the gRPC URL: a warning when its host is loopback (no remote
 * gateway can reach it), a note when it was only guessed from the console's address; nothing when
 * it comes from a setting and names a reachable host. The fix names the setting behind the URL.
 */
export function grpcUrlNotice(token: Pick<GatewayToken, 'grpc_url_source' | 'grpc_url_is_loopback'>): GrpcUrlNotice | undefined {
  const fix: MessageKey = token.grpc_url_source === 'grpc_public_url' ? 'gateways.grpcUrl.fixGrpc' : 'gateways.grpcUrl.fixPublic';
  if (token.grpc_url_is_loopback) return { kind: 'warning', messages: ['gateways.grpcUrl.loopback', fix] };
  if (token.grpc_url_source === 'request') return { kind: 'info', messages: ['gateways.grpcUrl.fromRequest', fix] };
  return undefined;
}
