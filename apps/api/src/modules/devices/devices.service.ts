import type { CreatedDevice, Device, DeviceConfig } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { isUniqueViolation } from '#src/lib/db-errors.js';
import { forbidden, HttpProblem } from '#src/lib/problem.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { lockLocationsOfDevices, lockLocationsOfUser, placeNewUserDevice } from '#src/modules/networks/device-placement.js';
import { renderDeviceConfig } from '#src/modules/networks/network-config.js';
import { NetworksRepo } from '#src/modules/networks/networks.repo.js';
import type { SettingsService } from '#src/modules/settings/settings.service.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { pageRowToDevice, toDevice } from './devices.mapper.js';
import { type DeviceRow, DevicesRepo } from './devices.repo.js';

type RenderedConfig = DeviceConfig & { config: string };

export const deviceNotFound = (id: number) => new HttpProblem(404, 'device.not_found', `Device ${id} does not exist.`);
export const deviceNameTaken = () =>
  new HttpProblem(400, 'device.name_taken', 'Device with this name already exists', [
    { path: 'name', code: 'device.name_taken', message: 'Device with this name already exists' },
  ]);
export const deviceKeyTaken = () =>
  new HttpProblem(400, 'device.key_taken', 'This public key is already used by another device.', [
    { path: 'wireguard_pubkey', code: 'device.invalid_key', message: 'Invalid key' },
  ]);

export const tx = <T>(db: Db, fn: (t: Db) => Promise<T>) => db.transaction((t) => fn(t as unknown as Db));

export function uniqueDeviceProblem(error: unknown): never {
  if (isUniqueViolation(error, 'devices_pubkey_key')) throw deviceKeyTaken();
  if (isUniqueViolation(error, 'devices_user_name_key') || isUniqueViolation(error, 'devices_network_name_key')) throw deviceNameTaken();
  throw error;
}

/**
 * A user device event: the device is the object and the device of the entry; the owner is its
 * subject when someone else (an admin) acted, so the owner sees it among their own entries.
 */
function deviceEvent(
  type: Extract<DomainEvent['type'], `device.${string}`>,
  actor: Actor,
  device: { id: number; name: string; userId: number | null },
  details: Record<string, unknown> = {},
): DomainEvent {
  return {
    type,
    actor: userActor(actor),
    object: { type: 'device', id: device.id, name: device.name },
    device: { id: device.id, name: device.name },
    ...(device.userId !== null && device.userId !== actor.userId ? { subjectUserId: device.userId } : {}),
    details,
  };
}

/**
 * User devices. Owners and admins manage them; with the device-management lock on (enterprise
 * settings) only admins may add, change or remove them, and with manual config disabled only
 * admins may read configs.
 */
export class DevicesService {
  readonly #repo: DevicesRepo;

  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
  ) {
    this.#repo = new DevicesRepo(db);
  }

  async #assertMayManage(actor: Actor): Promise<void> {
    if (!actor.isAdmin && (await this.settings.getEnterprise()).admin_device_management) {
      throw new HttpProblem(403, 'device.management_locked', 'Only administrators can manage devices.');
    }
  }

  async #requireOwned(actor: Actor, id: number): Promise<DeviceRow> {
    const row = await this.#repo.findById(id);
    if (row?.kind !== 'user') throw deviceNotFound(id);
    if (!actor.isAdmin && row.userId !== actor.userId) throw forbidden('You can only manage your own devices.');
    return row;
  }

  async #view(rows: DeviceRow[]): Promise<Device[]> {
    const ids = rows.map((r) => r.id);
    const [ips, connections, names] = await Promise.all([
      this.#repo.ipsOf(ids),
      this.#repo.connectionsOf(ids),
      this.#repo.usernamesOf([...new Set(rows.map((r) => r.userId).filter((id): id is number => id !== null))]),
    ]);
    return rows.map((r) => toDevice(r, ips, connections.get(r.id) ?? [], r.userId === null ? undefined : names.get(r.userId)));
  }

  async configsOf(deviceId: number): Promise<RenderedConfig[]> {
    const ips = await this.#repo.ipsOf([deviceId]);
    const { disable_all_traffic } = await this.settings.getEnterprise();
    const networks = new NetworksRepo(this.db);
    const out: RenderedConfig[] = [];
    for (const locationId of new Set(ips.map((r) => r.locationId))) {
      const location = await networks.findById(locationId);
      if (!location) continue;
      const mine = ips.filter((r) => r.locationId === locationId).map((r) => r.ip);
      out.push({
        network_id: location.id,
        network_name: location.name,
        assigned_ips: mine,
        config: renderDeviceConfig(location, mine, { disableAllTraffic: disable_all_traffic }),
      });
    }
    return out;
  }

  async create(actor: Actor, username: string, body: { name: string; wireguard_pubkey: string }): Promise<CreatedDevice> {
    await this.#assertMayManage(actor);
    const owner = await new UsersRepo(this.db).findByUsername(username);
    if (!owner) throw new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`);
    if (!actor.isAdmin && owner.id !== actor.userId) throw forbidden();
    if (await this.#repo.findUserDeviceByName(owner.id, body.name)) throw deviceNameTaken();
    if (await this.#repo.findByPubkey(body.wireguard_pubkey)) throw deviceKeyTaken();
    const row = await tx(this.db, async (t) => {
      await lockLocationsOfUser(t, owner.id);
      const device = await new DevicesRepo(t).insert({
        kind: 'user',
        name: body.name,
        wireguardPubkey: body.wireguard_pubkey,
        userId: owner.id,
      });
      await placeNewUserDevice(t, owner.id, device.id);
      await recordEvent(t, deviceEvent('device.added', actor, device, { owner: owner.username }));
      return device;
    }).catch(uniqueDeviceProblem);
    const [device] = await this.#view([row]);
    if (!device) throw deviceNotFound(row.id);
    const configs = await this.configsOf(row.id);
    // Spec §6: with manual config disabled a non-admin learns where the device was placed, not
    // the config (nor the location's key and endpoint it is rendered from).
    if (!actor.isAdmin && (await this.settings.getEnterprise()).disable_manual_config) {
      return { device, configs: configs.map(({ config: _config, ...placement }) => placement), config_disabled: true };
    }
    return { device, configs };
  }

  async list(query: { page: number; per_page: number; search?: string | undefined }) {
    const { rows, total } = await this.#repo.userDevicePage(query);
    return { items: rows.map(pageRowToDevice), page: query.page, per_page: query.per_page, total };
  }

  async listForUser(username: string): Promise<Device[]> {
    const owner = await new UsersRepo(this.db).findByUsername(username);
    if (!owner) throw new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`);
    return this.#view(await this.#repo.listUserDevicesOf(owner.id));
  }

  async get(actor: Actor, id: number): Promise<Device> {
    const [device] = await this.#view([await this.#requireOwned(actor, id)]);
    if (!device) throw deviceNotFound(id);
    return device;
  }

  async update(actor: Actor, id: number, body: { name: string; wireguard_pubkey: string }): Promise<Device> {
    const row = await this.#requireOwned(actor, id);
    await this.#assertMayManage(actor);
    const sameName = await this.#repo.findUserDeviceByName(row.userId ?? 0, body.name);
    if (sameName && sameName.id !== id) throw deviceNameTaken();
    const sameKey = await this.#repo.findByPubkey(body.wireguard_pubkey);
    if (sameKey && sameKey.id !== id) throw deviceKeyTaken();
    const changed = [
      ...(row.name !== body.name ? ['name'] : []),
      ...(row.wireguardPubkey !== body.wireguard_pubkey ? ['wireguard_pubkey'] : []),
    ];
    await tx(this.db, async (t) => {
      // Locations first (lock order, see lockLocationsOfUser): a new key changes the gateway state of each.
      await lockLocationsOfDevices(t, [id]);
      await new DevicesRepo(t).update(id, { name: body.name, wireguardPubkey: body.wireguard_pubkey });
      await recordEvent(
        t,
        deviceEvent(
          'device.modified',
          actor,
          { ...row, name: body.name },
          { changed, ...(changed.includes('name') ? { previous_name: row.name } : {}) },
        ),
      );
    }).catch(uniqueDeviceProblem);
    return this.get(actor, id);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const row = await this.#requireOwned(actor, id);
    await this.#assertMayManage(actor);
    await tx(this.db, async (t) => {
      await lockLocationsOfDevices(t, [id]);
      if (!(await new DevicesRepo(t).delete(id))) throw deviceNotFound(id);
      await recordEvent(t, deviceEvent('device.deleted', actor, row));
    });
  }

  async config(actor: Actor, networkId: number, deviceId: number): Promise<string> {
    const row = await this.#repo.findById(deviceId);
    if (!row) throw deviceNotFound(deviceId);
    if (!actor.isAdmin) {
      if (row.kind !== 'user' || row.userId !== actor.userId) throw forbidden('You can only read your own device configs.');
      if ((await this.settings.getEnterprise()).disable_manual_config) {
        throw new HttpProblem(403, 'device.config_disabled', 'Manual WireGuard configuration is disabled.');
      }
    }
    const config = (await this.configsOf(deviceId)).find((c) => c.network_id === networkId);
    if (!config) throw new HttpProblem(404, 'network.not_found', `Device ${deviceId} has no address in location ${networkId}.`);
    const location = { location_id: config.network_id, location_name: config.network_name };
    const event = deviceEvent('device.config_downloaded', actor, row, location);
    // An admin may read a network device's config here too: it is recorded as what it is.
    await recordEvent(
      this.db,
      row.kind === 'network'
        ? { ...event, type: 'network_device.config_downloaded', object: { type: 'network_device', id: row.id, name: row.name } }
        : event,
    );
    return config.config;
  }
}
