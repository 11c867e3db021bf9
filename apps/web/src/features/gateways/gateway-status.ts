import type { Gateway, GatewaysStatus } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';

/** Spec §4: all connected, some connected, none connected, or error (the check itself failed). */
export type GatewaysCheck = GatewaysStatus | 'error';

export type StatusTone = 'success' | 'warning' | 'error' | 'neutral';

/**
 * A location with no connected gateway serves nobody, so "none connected" is as red as a failed
 * check; "some connected" still serves its users but has lost redundancy (gold).
 */
export const STATUS_VIEW: Record<GatewaysCheck, { tone: StatusTone; label: MessageKey }> = {
  all_connected: { tone: 'success', label: 'gateways.status.all_connected' },
  some_connected: { tone: 'warning', label: 'gateways.status.some_connected' },
  none_connected: { tone: 'error', label: 'gateways.status.none_connected' },
  error: { tone: 'error', label: 'gateways.status.error' },
};

/** The status a query result shows: error when the call failed, undefined while the first answer is awaited. */
export function checkOf<T>(
  query: { isError: boolean; data: T | undefined },
  statusOf: (data: T) => GatewaysStatus,
): GatewaysCheck | undefined {
  if (query.isError) return 'error';
  return query.data === undefined ? undefined : statusOf(query.data);
}

/** The summary from a list of gateways, for when the server's own summary is not at hand. */
export function summarize(gateways: readonly Pick<Gateway, 'connected'>[]): GatewaysStatus {
  const connected = gateways.filter((g) => g.connected).length;
  if (connected === 0) return 'none_connected';
  return connected === gateways.length ? 'all_connected' : 'some_connected';
}

/** Connected gateways first, then by name. */
export function sortGateways<T extends Pick<Gateway, 'connected' | 'name'>>(gateways: readonly T[]): T[] {
  return [...gateways].sort((a, b) => Number(b.connected) - Number(a.connected) || a.name.localeCompare(b.name));
}
