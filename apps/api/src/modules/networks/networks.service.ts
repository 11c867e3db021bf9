import type { ImportedPeer, Network, NetworkBody } from '@palisade/contracts';
import {
  ConfigParseError,
  canonicalNetwork,
  formatIp,
  generateKeyPair,
  parseCidr,
  parseWgConfig,
  publicKeyFromPrivate,
} from '@palisade/wireguard';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { isUniqueViolation } from '#src/lib/db-errors.js';
import { HttpProblem } from '#src/lib/problem.js';
import type { EventActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { gatewayStreamEvent } from '#src/modules/gateways/gateway-events.js';
import { DevicesRepo } from '#src/modules/devices/devices.repo.js';
import { GroupsRepo } from '#src/modules/groups/groups.repo.js';
import { syncLocation } from './device-placement.js';
import { toNetwork } from './network-config.js';
import { type LocationRow, NetworksRepo } from './networks.repo.js';

export const networkNotFound = (id: number) => new HttpProblem(404, 'network.not_found', `Location ${id} does not exist.`);
const nameTaken = () =>
  new HttpProblem(400, 'network.name_taken', 'Name already taken.', [{ path: 'name', code: 'name_taken', message: 'Name already taken' }]);

/** Network devices cannot pass MFA, so a location that has some cannot be made MFA-protected (spec §6). */
const mfaWithNetworkDevices = () =>
  new HttpProblem(400, 'device.mfa_location', 'The location has network devices; MFA-protected locations are not available for them.');

const tx = <T>(db: Db, fn: (t: Db) => Promise<T>) => db.transaction((t) => fn(t as unknown as Db));

async function resolveGroupIds(db: Db, names: string[]): Promise<number[]> {
  const found = await new GroupsRepo(db).findManyByName(names);
  const missing = names.filter((n) => !found.some((g) => g.name.toLowerCase() === n.toLowerCase()));
  if (missing.length > 0) {
    throw new HttpProblem(400, 'group.not_found', `Unknown groups: ${missing.join(', ')}`, [
      { path: 'allowed_groups', code: 'invalid', message: 'Invalid value' },
    ]);
  }
  return found.map((g) => g.id);
}

/** Rejects two addresses of the same location whose networks overlap. */
function checkAddresses(addresses: string[]): void {
  const seen = new Set<string>();
  addresses.forEach((a, i) => {
    const c = parseCidr(a);
    const key = c ? canonicalNetwork(c) : a;
    if (seen.has(key)) {
      throw new HttpProblem(400, 'validation.failed', 'The request has invalid fields.', [
        { path: `address.${i}`, code: 'network.address_with_mask', message: 'Enter a valid address with a netmask' },
      ]);
    }
    seen.add(key);
  });
}

const locationObject = (row: { id: number; name: string }) => ({ type: 'location', id: row.id, name: row.name });

/** The body fields whose value differs from the location's (group names compared without case). */
function changedFields(current: Network, body: NetworkBody): string[] {
  const norm = (key: keyof NetworkBody, value: unknown) =>
    key === 'allowed_groups' ? JSON.stringify((value as string[]).map((g) => g.toLowerCase()).sort()) : JSON.stringify(value);
  return (Object.keys(body) as (keyof NetworkBody)[]).filter((key) => norm(key, current[key]) !== norm(key, body[key]));
}

function locationValues(body: NetworkBody) {
  return {
    name: body.name,
    addresses: body.address,
    endpoint: body.endpoint,
    port: body.port,
    dns: body.dns,
    allowedIps: body.allowed_ips,
    mfaEnabled: body.mfa_enabled,
    keepaliveInterval: body.keepalive_interval,
    peerDisconnectThreshold: body.peer_disconnect_threshold,
    aclEnabled: body.acl_enabled,
    aclDefaultAllow: body.acl_default_allow,
  };
}

export class NetworksService {
  readonly #repo: NetworksRepo;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.#repo = new NetworksRepo(db);
  }

  async isAnyPresent(): Promise<boolean> {
    return (await this.#repo.count()) > 0;
  }

  async list(): Promise<Network[]> {
    return (await this.#repo.list()).map(toNetwork);
  }

  async require(id: number, repo = this.#repo): Promise<LocationRow> {
    const row = await repo.findById(id);
    if (!row) throw networkNotFound(id);
    return row;
  }

  async get(id: number): Promise<Network> {
    const [record] = await this.#repo.withGroups([await this.require(id)]);
    if (!record) throw networkNotFound(id);
    return toNetwork(record);
  }

  async create(actor: EventActor, body: NetworkBody): Promise<Network> {
    return this.get(
      await this.#createWithChecks(body, (t, row) =>
        recordEvent(t, {
          type: 'location.created',
          actor,
          object: locationObject(row),
          details: { address: body.address, endpoint: body.endpoint, port: body.port, allowed_groups: body.allowed_groups },
        }),
      ),
    );
  }

  async #createWithChecks(
    body: NetworkBody,
    inTx: (t: Db, row: LocationRow) => Promise<void>,
    privateKey?: string,
    reserved?: ReadonlySet<string>,
  ): Promise<number> {
    checkAddresses(body.address);
    if (await this.#repo.findByName(body.name)) throw nameTaken();
    const keys = privateKey ? { privateKey, publicKey: publicKeyFromPrivate(privateKey) } : generateKeyPair();
    return tx(this.db, async (t) => {
      const repo = new NetworksRepo(t);
      const groupIds = await resolveGroupIds(t, body.allowed_groups);
      const row = await repo.insert({
        ...locationValues(body),
        pubkey: keys.publicKey,
        privateKeyEnc: this.secrets.encrypt(keys.privateKey),
      });
      await repo.setAllowedGroups(row.id, groupIds);
      await syncLocation(t, row, reserved);
      await inTx(t, row);
      return row.id;
    }).catch((error: unknown) => {
      if (isUniqueViolation(error, 'locations_name_lower_key')) throw nameTaken();
      throw error;
    });
  }

  async update(actor: EventActor, id: number, body: NetworkBody): Promise<Network> {
    checkAddresses(body.address);
    const current = await this.require(id);
    if (body.name.toLowerCase() !== current.name.toLowerCase() && (await this.#repo.findByName(body.name))) throw nameTaken();
    await tx(this.db, async (t) => {
      const repo = new NetworksRepo(t);
      const locked = await repo.lockById(id);
      if (!locked) throw networkNotFound(id);
      if (body.mfa_enabled && !locked.mfaEnabled && (await repo.hasNetworkDevices(id))) throw mfaWithNetworkDevices();
      const [before] = await repo.withGroups([locked]);
      const groupIds = await resolveGroupIds(t, body.allowed_groups);
      await repo.update(id, locationValues(body));
      await repo.setAllowedGroups(id, groupIds);
      const updated = await repo.findById(id);
      if (updated) await syncLocation(t, updated);
      const changed = before ? changedFields(toNetwork(before), body) : Object.keys(body);
      await recordEvent(t, {
        type: 'location.modified',
        actor,
        object: locationObject({ id, name: body.name }),
        details: { changed, ...(locked.name !== body.name ? { previous_name: locked.name } : {}) },
      });
    }).catch((error: unknown) => {
      if (isUniqueViolation(error, 'locations_name_lower_key')) throw nameTaken();
      throw error;
    });
    return this.get(id);
  }

  async delete(actor: EventActor, id: number): Promise<void> {
    await this.require(id);
    try {
      const gone = await tx(this.db, async (t) => {
        const repo = new NetworksRepo(t);
        const row = await repo.lockById(id);
        if (!row) return false;
        // Streams of its gateways end with it; their rows go too, so their disconnects are recorded here.
        const streams = (await repo.connectedGateways(id)).map((g) =>
          gatewayStreamEvent('gateway.disconnected', g, row, undefined, { reason: 'location deleted' }),
        );
        await repo.delete(id);
        await recordEvent(t, ...streams, { type: 'location.deleted', actor, object: locationObject(row) });
        return true;
      });
      if (!gone) throw networkNotFound(id);
    } catch (error) {
      if (error instanceof HttpProblem) throw error;
      throw Object.assign(new HttpProblem(500, 'network.delete_failed', 'Failed to delete the location.'), { cause: error });
    }
  }

  /** The location's private key, for the gateway and for server-side config export. */
  async privateKeyOf(id: number): Promise<string> {
    return this.secrets.decrypt((await this.require(id)).privateKeyEnc);
  }

  /** The imported peers of a location still waiting to be mapped (GET /network/{id}/devices). */
  async pendingPeers(id: number): Promise<ImportedPeer[]> {
    await this.require(id);
    return (await this.#repo.pendingPeers(id)).map((p) => ({ wireguard_pubkey: p.wireguardPubkey, wireguard_ips: p.wireguardIps }));
  }

  /** Importing again under the name of a location whose import was never finished points to it. */
  async #refusePendingName(name: string): Promise<void> {
    const location = await this.#repo.findByName(name);
    if (!location) return;
    const count = (await this.#repo.pendingCounts([location.id])).get(location.id) ?? 0;
    if (count === 0) throw nameTaken();
    const message = `Location '${location.name}' was imported already; ${count} of its peers wait to be mapped.`;
    throw new HttpProblem(400, 'network.import_pending', message, [
      { path: 'name', code: 'network.import_pending', message, params: { location_id: location.id, name: location.name, count } },
    ]);
  }

  /**
   * Creates a location from a WireGuard server config and returns its peers. Peers whose key
   * matches an existing device keep their addresses; the others are kept as pending peers of the
   * location (their addresses reserved) until they are mapped with `POST /network/{id}/devices`.
   */
  async importConfig(actor: EventActor, body: { name: string; endpoint: string; config: string; allowed_groups: string[] }) {
    let parsed: ReturnType<typeof parseWgConfig>;
    try {
      parsed = parseWgConfig(body.config);
    } catch (error) {
      if (!(error instanceof ConfigParseError)) throw error;
      throw new HttpProblem(400, 'network.import_invalid', error.message, [
        { path: 'config', code: 'invalid', message: error.message, params: { line: error.line } },
      ]);
    }
    const iface = parsed.interface;
    const problem = (line: number, reason: string) =>
      new HttpProblem(400, 'network.import_invalid', reason, [{ path: 'config', code: 'invalid', message: reason, params: { line } }]);
    if (!iface.privateKey) throw problem(0, 'the [Interface] section has no PrivateKey');
    const addresses = iface.addresses.filter((a) => parseCidr(a)?.prefix !== (a.includes(':') ? 128 : 32));
    if (addresses.length === 0) throw problem(0, 'the [Interface] section has no Address with a netmask');
    const networks = addresses.map((a) => parseCidr(a)).filter((c) => c !== undefined);
    const peers = parsed.peers.map((p) => ({
      wireguard_pubkey: p.publicKey,
      wireguard_ips: p.allowedIps
        .map((entry) => parseCidr(entry, true))
        .filter(
          (c) => c !== undefined && (c.prefix === 32 || c.prefix === 128) && networks.some((n) => n.address.version === c.address.version),
        )
        .map((c) => formatIp(c!.address)),
    }));
    await this.#refusePendingName(body.name);
    const existing = await new DevicesRepo(this.db).findByPubkeys(peers.map((p) => p.wireguard_pubkey));
    const unmatched = peers.filter((p) => !existing.some((d) => d.wireguardPubkey === p.wireguard_pubkey));
    // Every peer address stays free for its peer: matched devices take theirs now (in the same
    // transaction), the others are mapped later with POST /network/{id}/devices.
    const reserved = new Set(peers.flatMap((p) => p.wireguard_ips));
    const id = await this.#createWithChecks(
      {
        name: body.name,
        address: addresses,
        endpoint: body.endpoint,
        port: iface.listenPort ?? 51820,
        dns: iface.dns,
        allowed_ips: networks.map(canonicalNetwork),
        allowed_groups: body.allowed_groups,
        mfa_enabled: false,
        keepalive_interval: 25,
        peer_disconnect_threshold: 300,
        acl_enabled: false,
        acl_default_allow: false,
      },
      async (t, row) => {
        const repo = new NetworksRepo(t);
        for (const device of existing) {
          const peer = peers.find((p) => p.wireguard_pubkey === device.wireguardPubkey);
          if (!peer || peer.wireguard_ips.length === 0) continue;
          await repo.deleteIps(row.id, [device.id]);
          for (const ip of peer.wireguard_ips) await repo.insertIp(row.id, device.id, ip);
        }
        // The others wait, with the location, until they are mapped (the wizard can resume).
        await repo.insertPendingPeers(
          row.id,
          unmatched.map((p) => ({ wireguardPubkey: p.wireguard_pubkey, wireguardIps: p.wireguard_ips })),
        );
        await recordEvent(t, {
          type: 'location.imported',
          actor,
          object: locationObject(row),
          details: { peers: peers.length, mapped: peers.length - unmatched.length, pending: unmatched.length },
        });
      },
      iface.privateKey,
      reserved,
    );
    const network = await this.get(id);
    return {
      network,
      devices: peers.map((p) => {
        const device = existing.find((d) => d.wireguardPubkey === p.wireguard_pubkey);
        return device ? { ...p, device_id: device.id, name: device.name, ...(device.userId ? { user_id: device.userId } : {}) } : p;
      }),
    };
  }
}
