import type { ClientTunnel, RedeemCliTokenBody, RedeemedCliToken } from '@palisade/contracts';
import { formatEndpoint } from '@palisade/wireguard';
import type { Db } from '#src/db/client.js';
import { sha256 } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { DevicesRepo } from '#src/modules/devices/devices.repo.js';
import { tx, uniqueDeviceProblem } from '#src/modules/devices/devices.service.js';
import { anonymousActor, type EventActor, type RequestOrigin } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { placeDevice } from '#src/modules/networks/device-placement.js';
import { checkIp } from '#src/modules/networks/ip-allocator.js';
import { clientAllowedIps, interfaceAddresses, renderDeviceConfig } from '#src/modules/networks/network-config.js';
import { type LocationRow, NetworksRepo } from '#src/modules/networks/networks.repo.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { ClientCliRepo, type ConsumedCliToken, type FailurePolicy } from './client-cli.repo.js';

/** Failed redemptions per client address: 10 in 15 minutes lock the address out for 15 minutes. */
export const CLIENT_TOKEN_IP_POLICY: FailurePolicy = { limit: 10, windowSeconds: 15 * 60, lockSeconds: 15 * 60 };

const INVALID_DETAIL = 'This enrollment token is unknown, already used or expired. Ask your administrator for a new one.';

export const clientTokenInvalid = () => new HttpProblem(400, 'client_token.invalid', INVALID_DETAIL);

/**
 * Runs a redemption for a client address that is not locked out (429 otherwise), counting an
 * invalid token against the address (the login lockout's table; valid tokens are not counted).
 */
export async function countedRedemption<T>(db: Db, origin: RequestOrigin, redeem: () => Promise<T>): Promise<T> {
  const failures = new ClientCliRepo(db);
  const ipKey = `client_token_ip:${origin.ip ?? ''}`;
  if (await failures.locked(ipKey)) {
    throw new HttpProblem(429, 'client_token.too_many_attempts', 'Too many failed enrollment attempts from this address. Try again later.');
  }
  try {
    return await redeem();
  } catch (error) {
    if (error instanceof HttpProblem && error.code === 'client_token.invalid') await failures.countFailure(ipKey, CLIENT_TOKEN_IP_POLICY);
    throw error;
  }
}

/** The tunnel a client sets up for its device in one location. */
export function clientTunnel(location: LocationRow, ips: string[], disableAllTraffic = false): ClientTunnel {
  return {
    location_id: location.id,
    location_name: location.name,
    addresses: interfaceAddresses(location, ips),
    dns: location.dns,
    public_key: location.pubkey,
    endpoint: formatEndpoint(location.endpoint, location.port),
    allowed_ips: clientAllowedIps(location, disableAllTraffic),
    persistent_keepalive: location.keepaliveInterval,
    config: renderDeviceConfig(location, ips, { disableAllTraffic }),
  };
}

/**
 * Redeems CLI enrollment tokens (docs/locations.md, docs/cli.md): the machine sends the public key
 * it generated; the announced network device is created with it (or the existing one re-keyed) in
 * the transaction that spends the token. The event's actor is the administrator who issued the
 * token (the token carries their authority), with the redeeming machine's address.
 */
export class ClientCliService {
  constructor(private readonly db: Db) {}

  async redeem(body: RedeemCliTokenBody, origin: RequestOrigin): Promise<RedeemedCliToken> {
    return countedRedemption(this.db, origin, () =>
      tx(this.db, async (t) => {
        const token = await new ClientCliRepo(t).consume(sha256(body.token));
        if (!token) throw clientTokenInvalid();
        const actor = await this.#actor(t, token.created_by, origin);
        return token.device_id === null
          ? this.#create(t, token, body.wireguard_pubkey, actor)
          : this.#rekey(t, token.device_id, body.wireguard_pubkey, actor);
      }).catch(uniqueDeviceProblem),
    );
  }

  async #actor(t: Db, username: string, origin: RequestOrigin): Promise<EventActor> {
    const issuer = await new UsersRepo(t).findByUsername(username);
    return issuer ? { type: 'user', userId: issuer.id, username: issuer.username, ...origin } : anonymousActor(origin);
  }

  async #create(t: Db, token: ConsumedCliToken, pubkey: string, actor: EventActor): Promise<RedeemedCliToken> {
    const { spec } = token;
    const networks = new NetworksRepo(t);
    const location = await networks.lockById(spec.location_id);
    // The location was deleted since the token was issued: the announcement is gone with it.
    if (!location) throw clientTokenInvalid();
    if (location.mfaEnabled) {
      throw new HttpProblem(400, 'device.mfa_location', 'Locations with MFA cannot be used for network devices.');
    }
    const devices = new DevicesRepo(t);
    const device = await devices.insert({
      kind: 'network',
      name: spec.name,
      wireguardPubkey: pubkey,
      locationId: location.id,
      description: spec.description || null,
      addedBy: token.created_by,
    });
    for (const text of spec.assigned_ips ?? []) {
      const result = await checkIp(networks, location.id, location.addresses, text);
      if (!result.ok) throw new HttpProblem(409, 'network.ip_in_use', `The address ${text} chosen for this device is no longer free.`);
      await networks.insertIp(location.id, device.id, result.ip);
    }
    await placeDevice(t, location, device.id);
    const ips = (await devices.ipsOf([device.id])).map((r) => r.ip);
    await recordEvent(t, {
      type: 'network_device.added',
      actor,
      object: { type: 'network_device', id: device.id, name: device.name },
      device: { id: device.id, name: device.name },
      details: { location_id: location.id, location_name: location.name, assigned_ips: ips, via: 'cli_token' },
    });
    return { device: { id: device.id, name: device.name }, tunnel: clientTunnel(location, ips) };
  }

  async #rekey(t: Db, deviceId: number, pubkey: string, actor: EventActor): Promise<RedeemedCliToken> {
    const devices = new DevicesRepo(t);
    const device = await devices.findById(deviceId);
    if (device?.kind !== 'network') throw clientTokenInvalid();
    const location = await new NetworksRepo(t).lockById(device.locationId ?? 0);
    if (!location) throw clientTokenInvalid();
    await devices.update(device.id, { wireguardPubkey: pubkey });
    const ips = (await devices.ipsOf([device.id])).map((r) => r.ip);
    await recordEvent(t, {
      type: 'network_device.modified',
      actor,
      object: { type: 'network_device', id: device.id, name: device.name },
      device: { id: device.id, name: device.name },
      details: { location_id: location.id, location_name: location.name, changed: ['wireguard_pubkey'], via: 'cli_token' },
    });
    return { device: { id: device.id, name: device.name }, tunnel: clientTunnel(location, ips) };
  }
}
