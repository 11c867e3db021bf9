import type { Gateway, GatewaysStatus } from '@palisade/contracts';
import type { MessageKey } from '@/i18n/en';

/** Spec §4: all connected, some connected, none connected, or error (the check itself failed). */
export type GatewaysCheck = GatewaysStatus | 'error';

export const STATUS_VIEW: Record<GatewaysCheck, { tone: 'success' | 'warning' | 'neutral' | 'error'; label: MessageKey }> = {
  all_connected: { tone: 'success', label: 'gateways.status.all_connected' },
  some_connected: { tone: 'warning', label: 'gateways.status.some_connected' },
  none_connected: { tone: 'neutral', label: 'gateways.status.none_connected' },
  error: { tone: 'error', label: 'gateways.status.error' },
};

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
