import type { NetworkDevice, PendingNetworkDevice } from '@palisade/contracts';
import { contains, parseCidr, parseIp } from '@palisade/wireguard';
import type { Db } from '#src/db/client.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type EventActor, userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { lockLocationsOfDevices, lockLocationsOfUsers, placeDevice, syncUserDevices } from '#src/modules/networks/device-placement.js';
import { checkIp, findFreeIp } from '#src/modules/networks/ip-allocator.js';
import { renderDeviceConfig } from '#src/modules/networks/network-config.js';
import { type LocationRow, NetworksRepo } from '#src/modules/networks/networks.repo.js';
import { networkNotFound } from '#src/modules/networks/networks.service.js';
import type { SettingsService } from '#src/modules/settings/settings.service.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { toNetworkDevice } from './devices.mapper.js';
import { type DeviceRow, DevicesRepo } from './devices.repo.js';
import { deviceKeyTaken, deviceNameTaken, deviceNotFound, tx, uniqueDeviceProblem } from './devices.service.js';

const CLI_TOKEN_TTL_MS = 24 * 3600_000;

const ipProblem = (index: number, code: string, message: string) =>
  new HttpProblem(400, code as 'network.ip_in_use', message, [{ path: `assigned_ips.${index}`, code, message }]);

const IP_MESSAGES: Record<string, string> = {
  'network.ip_invalid': 'Invalid IP',
  'network.ip_outside': 'IP is outside of the location network',
  'network.ip_in_use': 'IP already in use',
};

type NetworkDeviceEvent = Extract<DomainEvent['type'], `network_device.${string}`>;

/** A network device event: the device is both the object and the device of the entry. */
function deviceEvent(
  type: NetworkDeviceEvent,
  actor: EventActor,
  device: { id: number; name: string },
  location: { id: number; name: string } | undefined,
  details: Record<string, unknown> = {},
): DomainEvent {
  return {
    type,
    actor,
    object: { type: 'network_device', id: device.id, name: device.name },
    device: { id: device.id, name: device.name },
    details: { ...(location ? { location_id: location.id, location_name: location.name } : {}), ...details },
  };
}

/** Standalone network devices (servers, routers): one location, admin-managed (spec §3). */
export class NetworkDevicesService {
  readonly #repo: DevicesRepo;

  constructor(
    private readonly db: Db,
    readonly _settings: SettingsService,
    private readonly publicUrl: string | undefined,
  ) {
    this.#repo = new DevicesRepo(db);
  }

  async #location(id: number, repo = new NetworksRepo(this.db)): Promise<LocationRow> {
    const location = await repo.findById(id);
    if (!location) throw networkNotFound(id);
    return location;
  }

  async #require(id: number): Promise<DeviceRow> {
    const row = await this.#repo.findById(id);
    if (row?.kind !== 'network') throw deviceNotFound(id);
    return row;
  }

  async #view(rows: DeviceRow[]): Promise<NetworkDevice[]> {
    const ids = rows.map((r) => r.id);
    const [ips, connections] = await Promise.all([this.#repo.ipsOf(ids), this.#repo.connectionsOf(ids)]);
    return rows.map((r) => toNetworkDevice(r, ips, connections.get(r.id) ?? []));
  }

  async #config(device: DeviceRow): Promise<string> {
    const location = await this.#location(device.locationId ?? 0);
    const ips = (await this.#repo.ipsOf([device.id])).map((r) => r.ip);
    return renderDeviceConfig(location, ips, { disableAllTraffic: false });
  }

  /** Validates chosen addresses (each in a distinct network of the location) and stores them. */
  async #assignChosen(t: Db, location: LocationRow, deviceId: number, ips: string[]): Promise<void> {
    const repo = new NetworksRepo(t);
    const usedNetworks = new Set<string>();
    for (const [index, text] of ips.entries()) {
      const result = await checkIp(repo, location.id, location.addresses, text);
      if (!result.ok) throw ipProblem(index, result.code, IP_MESSAGES[result.code] ?? 'Invalid IP');
      if (usedNetworks.has(result.network ?? '')) throw ipProblem(index, 'network.ip_invalid', 'Only one address per location network');
      usedNetworks.add(result.network ?? '');
      await repo.insertIp(location.id, deviceId, result.ip);
    }
  }

  async list(query: { page: number; per_page: number; search?: string | undefined }) {
    const { rows, total } = await this.#repo.page('network', query);
    return { items: await this.#view(rows), page: query.page, per_page: query.per_page, total };
  }

  async get(id: number): Promise<NetworkDevice> {
    const [device] = await this.#view([await this.#require(id)]);
    if (!device) throw deviceNotFound(id);
    return device;
  }

  /** The config, recorded as downloaded (a read that leaves a trace in the activity log). */
  async config(actor: Actor, id: number): Promise<string> {
    const device = await this.#require(id);
    const location = await this.#location(device.locationId ?? 0);
    const config = await this.#config(device);
    await recordEvent(this.db, deviceEvent('network_device.config_downloaded', userActor(actor), device, location));
    return config;
  }

  async create(
    actor: Actor,
    body: {
      name: string;
      location_id: number;
      assigned_ips?: string[] | undefined;
      wireguard_pubkey: string;
      description?: string | undefined;
    },
  ): Promise<{ device: NetworkDevice; config: string }> {
    const location = await this.#location(body.location_id);
    if (location.mfaEnabled) {
      throw new HttpProblem(400, 'device.mfa_location', 'Locations with MFA cannot be used for network devices.', [
        { path: 'location_id', code: 'invalid', message: 'Invalid value' },
      ]);
    }
    if (await this.#repo.findNetworkDeviceByName(body.name)) throw deviceNameTaken();
    if (await this.#repo.findByPubkey(body.wireguard_pubkey)) throw deviceKeyTaken();
    const row = await tx(this.db, async (t) => {
      const locked = await new NetworksRepo(t).lockById(location.id);
      if (!locked) throw networkNotFound(location.id);
      const device = await new DevicesRepo(t).insert({
        kind: 'network',
        name: body.name,
        wireguardPubkey: body.wireguard_pubkey,
        locationId: location.id,
        description: body.description || null,
        addedBy: actor.username,
      });
      await this.#assignChosen(t, locked, device.id, body.assigned_ips ?? []);
      await placeDevice(t, locked, device.id);
      const ips = (await new DevicesRepo(t).ipsOf([device.id])).map((r) => r.ip);
      await recordEvent(t, deviceEvent('network_device.added', userActor(actor), device, locked, { assigned_ips: ips }));
      return device;
    }).catch(uniqueDeviceProblem);
    return { device: await this.get(row.id), config: await this.#config(row) };
  }

  async update(
    actor: Actor,
    id: number,
    body: { name: string; assigned_ips: string[]; description?: string | undefined },
  ): Promise<NetworkDevice> {
    const row = await this.#require(id);
    const sameName = await this.#repo.findNetworkDeviceByName(body.name);
    if (sameName && sameName.id !== id) throw deviceNameTaken();
    await tx(this.db, async (t) => {
      const location = await new NetworksRepo(t).lockById(row.locationId ?? 0);
      if (!location) throw networkNotFound(row.locationId ?? 0);
      const devices = new DevicesRepo(t);
      const before = await devices.findById(id);
      if (before?.kind !== 'network') throw deviceNotFound(id);
      const ipsBefore = (await devices.ipsOf([id])).map((r) => r.ip).sort();
      await devices.update(id, { name: body.name, description: body.description || null });
      await new NetworksRepo(t).deleteIps(location.id, [id]);
      await this.#assignChosen(t, location, id, body.assigned_ips);
      await placeDevice(t, location, id);
      const ipsAfter = (await devices.ipsOf([id])).map((r) => r.ip).sort();
      const changed = [
        ...(before.name !== body.name ? ['name'] : []),
        ...((before.description ?? '') !== (body.description ?? '') ? ['description'] : []),
        ...(ipsBefore.join() !== ipsAfter.join() ? ['assigned_ips'] : []),
      ];
      await recordEvent(
        t,
        deviceEvent('network_device.modified', userActor(actor), { id, name: body.name }, location, {
          changed,
          ...(before.name !== body.name ? { previous_name: before.name } : {}),
        }),
      );
    }).catch(uniqueDeviceProblem);
    return this.get(id);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const row = await this.#require(id);
    await tx(this.db, async (t) => {
      await lockLocationsOfDevices(t, [id]);
      const location = await new NetworksRepo(t).findById(row.locationId ?? 0);
      if (!(await new DevicesRepo(t).delete(id))) throw deviceNotFound(id);
      await recordEvent(t, deviceEvent('network_device.deleted', userActor(actor), row, location));
    });
  }

  /** The first free address of each network of the location (nothing is reserved). */
  async suggestIps(locationId: number): Promise<string[]> {
    const location = await this.#location(locationId);
    const repo = new NetworksRepo(this.db);
    const out: string[] = [];
    for (const address of location.addresses) {
      const ip = await findFreeIp(repo, location.id, address);
      if (ip) out.push(ip);
    }
    return out;
  }

  async validateIps(locationId: number, ips: string[]) {
    const location = await this.#location(locationId);
    const repo = new NetworksRepo(this.db);
    const results = [];
    for (const ip of ips) {
      const r = await checkIp(repo, location.id, location.addresses, ip);
      results.push(r.ok ? { ip: r.ip, valid: true } : { ip, valid: false, code: r.code });
    }
    return { results };
  }

  /** A one-time CLI enrollment token (shown once, stored as a hash, valid for 24 h). */
  async startCli(
    actor: Actor,
    spec: { name: string; location_id: number; assigned_ips?: string[] | undefined; description?: string | undefined },
    deviceId?: number,
  ) {
    const existing = deviceId === undefined ? undefined : await this.#require(deviceId);
    const location = await this.#location(existing ? (existing.locationId ?? 0) : spec.location_id);
    if (!existing) {
      if (location.mfaEnabled) {
        throw new HttpProblem(400, 'device.mfa_location', 'Locations with MFA cannot be used for network devices.', [
          { path: 'location_id', code: 'invalid', message: 'Invalid value' },
        ]);
      }
      if (await this.#repo.findNetworkDeviceByName(spec.name)) throw deviceNameTaken();
      const networks = new NetworksRepo(this.db);
      for (const [index, ip] of (spec.assigned_ips ?? []).entries()) {
        const result = await checkIp(networks, location.id, location.addresses, ip);
        if (!result.ok) throw ipProblem(index, result.code, IP_MESSAGES[result.code] ?? 'Invalid IP');
      }
    }
    const token = randomToken(24);
    const expiresAt = new Date(Date.now() + CLI_TOKEN_TTL_MS);
    await tx(this.db, async (t) => {
      const pendingId = await new DevicesRepo(t).insertCliToken({
        tokenHash: sha256(token),
        deviceId: deviceId ?? null,
        spec,
        createdBy: actor.username,
        expiresAt,
      });
      // No token in the entry: the object is the device, or the pending enrollment it announces.
      await recordEvent(
        t,
        existing
          ? deviceEvent('network_device.cli_token_issued', userActor(actor), existing, location, { expires_at: expiresAt.toISOString() })
          : {
              type: 'network_device.cli_token_issued',
              actor: userActor(actor),
              object: { type: 'pending_network_device', id: pendingId, name: spec.name },
              details: { location_id: location.id, location_name: location.name, expires_at: expiresAt.toISOString() },
            },
      );
    }).catch((error: unknown) => {
      throw Object.assign(new HttpProblem(500, 'token.generation_failed', 'Token generation failed.'), { cause: error });
    });
    return { token, expires_at: expiresAt.toISOString(), ...(this.publicUrl ? { enrollment_url: this.publicUrl } : {}) };
  }

  /** New network devices announced with a CLI token whose client has not enrolled yet. */
  async pending(): Promise<PendingNetworkDevice[]> {
    const now = Date.now();
    return (await this.#repo.pendingEnrollments())
      .filter((r) => r.location_name !== null)
      .map((r) => ({
        id: r.id,
        name: r.spec.name,
        location_id: r.spec.location_id,
        location_name: r.location_name ?? '',
        assigned_ips: r.spec.assigned_ips ?? [],
        ...(r.spec.description ? { description: r.spec.description } : {}),
        added_by: r.created_by,
        added_date: new Date(r.created_at).toISOString(),
        expires_at: new Date(r.expires_at).toISOString(),
        is_expired: new Date(r.expires_at).getTime() <= now,
      }));
  }

  async deletePending(actor: Actor, id: number): Promise<void> {
    await tx(this.db, async (t) => {
      const spec = await new DevicesRepo(t).deletePendingEnrollment(id);
      if (!spec) throw new HttpProblem(404, 'device.not_found', `No pending enrollment ${id}.`);
      const location = await new NetworksRepo(t).findById(spec.location_id);
      await recordEvent(t, {
        type: 'network_device.pending_deleted',
        actor: userActor(actor),
        object: { type: 'pending_network_device', id, name: spec.name },
        details: { location_id: spec.location_id, ...(location ? { location_name: location.name } : {}) },
      });
    });
  }

  /** Maps peers of an imported config to users (POST /network/{id}/devices). */
  async mapImported(
    actor: Actor,
    locationId: number,
    devices: { name: string; wireguard_pubkey: string; wireguard_ips: string[]; user_id: number }[],
  ): Promise<void> {
    await tx(this.db, async (t) => {
      const networks = new NetworksRepo(t);
      // Every location the owners' devices may join or leave, in id order, before the first write
      // (lock order, see lockLocationsOfUser): this one and those of syncUserDevices below.
      await lockLocationsOfUsers(t, [...new Set(devices.map((d) => d.user_id))], [locationId]);
      const location = await networks.lockById(locationId);
      if (!location) throw networkNotFound(locationId);
      const repo = new DevicesRepo(t);
      for (const [index, item] of devices.entries()) {
        const field = (name: string, code: string, message: string) =>
          new HttpProblem(400, 'validation.failed', message, [{ path: `devices.${index}.${name}`, code, message }]);
        if (!(await new UsersRepo(t).findById(item.user_id))) throw field('user_id', 'invalid', 'Unknown user.');
        if (!(await networks.locationIdsForUser(item.user_id)).includes(locationId)) {
          throw field('user_id', 'invalid', 'This user may not use this location (allowed groups).');
        }
        const existing = await repo.findByPubkey(item.wireguard_pubkey);
        const device =
          existing ??
          (await repo
            .insert({ kind: 'user', name: item.name, wireguardPubkey: item.wireguard_pubkey, userId: item.user_id })
            .catch((error: unknown) => {
              try {
                uniqueDeviceProblem(error);
              } catch (problem) {
                if (problem instanceof HttpProblem)
                  throw field(
                    problem.code === 'device.key_taken' ? 'wireguard_pubkey' : 'name',
                    problem.errors?.[0]?.code ?? 'invalid',
                    problem.detail ?? 'Invalid value',
                  );
                throw problem;
              }
            }));
        await networks.deleteIps(locationId, [device.id]);
        for (const ipText of item.wireguard_ips) {
          const ip = parseIp(ipText);
          const inside =
            ip &&
            location.addresses.some((a) => {
              const c = parseCidr(a);
              return c !== undefined && contains(c, ip);
            });
          if (!inside) throw field('wireguard_ips', 'network.ip_outside', 'IP is outside of the location network');
          const check = await checkIp(networks, locationId, location.addresses, ipText);
          if (!check.ok && check.code === 'network.ip_in_use') {
            // Name the conflict: which address, held by which device.
            const holder = (await networks.deviceNameAt(locationId, ipText)) ?? '';
            const message = `IP ${ipText} is already used by device ${holder}`;
            throw new HttpProblem(400, 'validation.failed', message, [
              { path: `devices.${index}.wireguard_ips`, code: check.code, message, params: { ip: ipText, device: holder } },
            ]);
          }
          if (!check.ok) throw field('wireguard_ips', check.code, IP_MESSAGES[check.code] ?? 'Invalid IP');
          await networks.insertIp(locationId, device.id, check.ip);
        }
        await placeDevice(t, location, device.id);
      }
      // Mapped peers stop waiting (the location's import is finished once none are left).
      await networks.deletePendingPeers(
        locationId,
        devices.map((d) => d.wireguard_pubkey),
      );
      // New devices also join the other locations their owners may use.
      for (const userId of new Set(devices.map((d) => d.user_id))) await syncUserDevices(t, userId);
      const pending = (await networks.pendingCounts([locationId])).get(locationId) ?? 0;
      await recordEvent(t, {
        type: 'location.devices_mapped',
        actor: userActor(actor),
        object: { type: 'location', id: location.id, name: location.name },
        details: { mapped: devices.length, users: new Set(devices.map((d) => d.user_id)).size, pending },
      });
    });
  }
}
