import type { Gateway, GatewaysStatus, GatewayToken, LocationGateways } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { randomToken, type SecretBox, sha256 } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import type { EventActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { gatewayStreamEvent } from './gateway-events.js';
import { networkNotFound } from '#src/modules/networks/networks.service.js';
import { type GatewayStatusRow, GatewaysRepo } from './gateways.repo.js';
import { type GrpcUrlOptions, type ResolvedGrpcUrl, resolveGrpcUrl } from './grpc-url.js';

/**
 * Gateway tokens and status (spec §4 Gateways status, §7). A location has one gateway token:
 * created on first read, shown again to admins (stored sealed, looked up by its sha256), replaced
 * by `rotate`, which cuts off every stream still holding the old one.
 */
export type { GrpcUrlOptions } from './grpc-url.js';

const iso = (d: Date | null) => (d ? { value: d.toISOString() } : undefined);

function toGateway(r: GatewayStatusRow): Gateway {
  const connectedAt = iso(r.connected_at);
  const disconnectedAt = iso(r.disconnected_at);
  const lastSeenAt = iso(r.last_seen_at);
  const sameEpoch = r.acknowledged_epoch === r.revision_epoch;
  return {
    id: r.id,
    location_id: r.location_id,
    gateway_id: r.gateway_id,
    name: r.name,
    hostname: r.hostname,
    version: r.version,
    interface_name: r.interface_name,
    wireguard_implementation: r.implementation,
    connected: r.connected,
    ...(connectedAt ? { connected_at: connectedAt.value } : {}),
    ...(disconnectedAt && !r.connected ? { disconnected_at: disconnectedAt.value } : {}),
    ...(lastSeenAt ? { last_seen_at: lastSeenAt.value } : {}),
    acknowledged_revision: sameEpoch ? Number(r.acknowledged_revision) : 0,
    location_revision: Number(r.location_revision),
    state: r.connected ? r.state : 'unknown',
    ...(r.status_message ? { status_message: r.status_message } : {}),
    ...(r.peer_count !== null ? { peer_count: r.peer_count } : {}),
  };
}

export function summarize(gateways: Pick<Gateway, 'connected'>[]): GatewaysStatus {
  const connected = gateways.filter((g) => g.connected).length;
  if (connected === 0) return 'none_connected';
  return connected === gateways.length ? 'all_connected' : 'some_connected';
}

export class GatewaysService {
  readonly #repo: GatewaysRepo;

  constructor(
    db: Db,
    private readonly secrets: SecretBox,
    private readonly urls: GrpcUrlOptions,
  ) {
    this.#repo = new GatewaysRepo(db);
  }

  grpcUrl(requestHostname: string): ResolvedGrpcUrl {
    return resolveGrpcUrl(this.urls, requestHostname);
  }

  async token(locationId: number, requestHostname: string): Promise<GatewayToken> {
    const current = await this.#repo.token(locationId);
    if (!current) throw networkNotFound(locationId);
    if (current.tokenEnc) return { token: this.secrets.decrypt(current.tokenEnc), ...this.grpcUrl(requestHostname) };
    const token = randomToken(32);
    // Two first reads at once: the second keeps the first's token.
    if (!(await this.#store(locationId, token, true))) return this.token(locationId, requestHostname);
    return { token, ...this.grpcUrl(requestHostname) };
  }

  async rotate(actor: EventActor, locationId: number, requestHostname: string): Promise<GatewayToken> {
    const token = randomToken(32);
    const stored = await this.#store(locationId, token, false, (t, location) =>
      // Never the token: the entry says that it changed, not what it is.
      recordEvent(t, { type: 'location.token_rotated', actor, object: { type: 'location', id: location.id, name: location.name } }),
    );
    if (!stored) throw networkNotFound(locationId);
    return { token, ...this.grpcUrl(requestHostname) };
  }

  async #store(
    locationId: number,
    token: string,
    onlyIfUnset: boolean,
    inTx?: (t: Db, location: { id: number; name: string }) => Promise<void>,
  ): Promise<boolean> {
    try {
      return await this.#repo.setToken(locationId, sha256(token), this.secrets.encrypt(token), onlyIfUnset, inTx);
    } catch (error) {
      throw Object.assign(new HttpProblem(500, 'token.generation_failed', 'Token generation failed.'), { cause: error });
    }
  }

  async listAll(): Promise<LocationGateways[]> {
    const [locations, rows] = await Promise.all([this.#repo.locations(), this.#repo.list()]);
    return locations.map((l) => {
      const gateways = rows.filter((r) => r.location_id === l.id).map(toGateway);
      return { location_id: l.id, location_name: l.name, status: summarize(gateways), gateways };
    });
  }

  async listFor(locationId: number): Promise<Gateway[]> {
    if (!(await this.#repo.token(locationId))) throw networkNotFound(locationId);
    return (await this.#repo.list(locationId)).map(toGateway);
  }

  async delete(actor: EventActor, locationId: number, id: number): Promise<void> {
    if (!(await this.#repo.token(locationId))) throw networkNotFound(locationId);
    const deleted = await this.#repo.delete(locationId, id, async (t, gone) => {
      const location = { id: gone.location_id, name: gone.location_name };
      const gateway = { id: gone.id, gatewayId: gone.gateway_id, name: gone.name, hostname: gone.hostname, version: gone.version };
      // Its stream ends with the row: that stream's disconnect is recorded here (the row is gone when it closes).
      if (gone.stream_id)
        await recordEvent(t, gatewayStreamEvent('gateway.disconnected', gateway, location, undefined, { reason: 'gateway deleted' }));
      await recordEvent(t, {
        type: 'gateway.deleted',
        actor,
        object: { type: 'gateway', id: gone.id, name: gone.name || gone.gateway_id },
        details: { location_id: gone.location_id, location_name: gone.location_name, gateway_id: gone.gateway_id, hostname: gone.hostname },
      });
    });
    if (!deleted) throw new HttpProblem(404, 'gateway.not_found', `Gateway ${id} does not exist in location ${locationId}.`);
  }
}
