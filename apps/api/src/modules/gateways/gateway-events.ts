import type { DomainEvent } from '#src/modules/events/record-event.js';

/** What a gateway's stream events say about it (from its hello, as stored in `gateways`). */
export interface StreamGateway {
  /** The `gateways` row id. */
  id: number;
  gatewayId: string;
  name: string;
  hostname: string;
  version: string;
}

/**
 * `gateway.connected` / `gateway.disconnected` of one stream: the gateway is the actor (with the
 * stream's peer address when known) and the object; the details name the location.
 */
export function gatewayStreamEvent(
  type: 'gateway.connected' | 'gateway.disconnected',
  gateway: StreamGateway,
  location: { id: number; name: string },
  peer: string | undefined,
  extra: Record<string, unknown> = {},
): DomainEvent {
  const name = gateway.name || gateway.gatewayId;
  return {
    type,
    actor: { type: 'gateway', name, ...(peer ? { ip: peer } : {}) },
    object: { type: 'gateway', id: gateway.id, name },
    details: {
      location_id: location.id,
      location_name: location.name,
      gateway_id: gateway.gatewayId,
      hostname: gateway.hostname,
      version: gateway.version,
      ...extra,
    },
  };
}
