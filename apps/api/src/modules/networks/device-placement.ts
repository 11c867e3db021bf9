import { contains, isAssignable, parseCidr, parseIp } from '@palisade/wireguard';
import type { Db } from '#src/db/client.js';
import { DevicesRepo } from '#src/modules/devices/devices.repo.js';
import { allocateIp, networkKey } from './ip-allocator.js';
import { type LocationRow, NetworksRepo } from './networks.repo.js';

/**
 * Which devices hold addresses in which locations. A user device has one address per location
 * address in every location its owner may use (allowed groups empty = everyone); a network device
 * only in its own location. These functions restore that after any change, inside the caller's
 * transaction; callers lock the location rows they touch first.
 */

function networksOf(location: Pick<LocationRow, 'addresses'>) {
  return location.addresses.map((a) => parseCidr(a)).filter((c) => c !== undefined);
}

/**
 * Gives `deviceId` an address in each network of the location that it lacks. `held` (the
 * device's current addresses, all locations) saves a query when the caller has them already.
 */
export async function placeDevice(
  tx: Db,
  location: LocationRow,
  deviceId: number,
  reserved?: ReadonlySet<string>,
  held?: readonly { deviceId: number; locationId: number; ip: string }[],
): Promise<void> {
  const repo = new NetworksRepo(tx);
  const current = (held ?? (await new DevicesRepo(tx).ipsOf([deviceId]))).filter(
    (r) => r.deviceId === deviceId && r.locationId === location.id,
  );
  let present = false;
  for (const address of location.addresses) {
    const cidr = parseCidr(address);
    if (!cidr) continue;
    const has = current.some((r) => {
      const ip = parseIp(r.ip);
      return ip !== undefined && contains(cidr, ip);
    });
    if (has) continue;
    // A device read before a concurrent deletion committed (a location change locks only its own
    // location, the deletion only those the device is in): skipped rather than failing on the key.
    if (!present) {
      if (!(await repo.holdDevice(deviceId))) return;
      present = true;
    }
    await repo.insertIp(location.id, deviceId, await allocateIp(repo, location.id, address, reserved));
  }
}

/**
 * After a location's addresses or allowed groups changed: drop addresses outside its networks
 * and of devices no longer eligible, then give every eligible device what it lacks.
 */
export async function syncLocation(tx: Db, location: LocationRow, reserved?: ReadonlySet<string>): Promise<void> {
  const repo = new NetworksRepo(tx);
  const networks = networksOf(location);
  const eligible = new Set(await repo.eligibleUserDeviceIds(location.id));
  const networkDeviceIds = (await repo.deviceIdsInLocation(location.id)).filter((id) => !eligible.has(id));
  const devices = new DevicesRepo(tx);
  for (const id of networkDeviceIds) {
    const row = await devices.findById(id);
    if (row?.kind === 'network' && row.locationId === location.id) eligible.add(id);
  }
  for (const r of await repo.ipsOfLocation(location.id)) {
    const ip = parseIp(r.ip);
    if (!eligible.has(r.deviceId) || !ip || !networks.some((c) => isAssignable(c, ip))) await repo.deleteIp(location.id, r.ip);
  }
  await repo.dropCursorsExcept(location.id, networks.map(networkKey));
  const held = (await repo.ipsOfLocation(location.id)).map((r) => ({ ...r, locationId: location.id }));
  for (const id of [...eligible].sort((a, b) => a - b)) await placeDevice(tx, location, id, reserved, held);
}

/**
 * The lock order of every change to addresses, devices or group memberships: first the locations
 * the transaction may touch, in ascending id order, before its first write; then the rows it
 * writes (devices, row counters, gateway state through triggers). Without it, a device creation
 * (device row and row counter, then its locations) and a device deletion (gateway state and row
 * counter through triggers, then the locations through foreign-key checks) deadlocked.
 *
 * The user's: the locations it may use and those where its devices hold addresses, plus `also`
 * (e.g. the locations a group change may open).
 */
export async function lockLocationsOfUser(tx: Db, userId: number, also: readonly number[] = []): Promise<void> {
  await lockLocationsOfUsers(tx, [userId], also);
}

/** The same for several users (group changes, bulk assignments). */
export async function lockLocationsOfUsers(tx: Db, userIds: number[], also: readonly number[] = []): Promise<void> {
  const networks = new NetworksRepo(tx);
  await networks.lockInOrder([...(await networks.locationIdsOfUsers([...new Set(userIds)])), ...also]);
}

/** Before deleting devices (or their owner): the locations where they hold addresses, in order. */
export async function lockLocationsOfDevices(tx: Db, deviceIds: number[]): Promise<void> {
  const networks = new NetworksRepo(tx);
  await networks.lockInOrder(await networks.locationIdsOfDevices(deviceIds));
}

/** Before deleting a user: the locations where its devices hold addresses, in order. */
export async function lockLocationsOfUserDevices(tx: Db, userId: number): Promise<void> {
  const networks = new NetworksRepo(tx);
  await networks.lockInOrder(await networks.locationIdsOfUserDevices(userId));
}

/** A new user device joins every location its owner may use. */
export async function placeNewUserDevice(tx: Db, ownerId: number, deviceId: number): Promise<void> {
  const networks = new NetworksRepo(tx);
  for (const locationId of (await networks.locationIdsForUser(ownerId)).sort((a, b) => a - b)) {
    const location = await networks.lockById(locationId);
    if (location) await placeDevice(tx, location, deviceId, undefined, []);
  }
}

/** After a user's groups changed (or a device was added): join allowed locations, leave others. */
export async function syncUserDevices(tx: Db, userId: number): Promise<void> {
  const networks = new NetworksRepo(tx);
  const devices = await new DevicesRepo(tx).listUserDevicesOf(userId);
  if (devices.length === 0) return;
  const allowed = new Set(await networks.locationIdsForUser(userId));
  const held = await new DevicesRepo(tx).ipsOf(devices.map((d) => d.id));
  for (const locationId of new Set(held.map((h) => h.locationId))) {
    if (!allowed.has(locationId))
      await networks.deleteIps(
        locationId,
        devices.map((d) => d.id),
      );
  }
  for (const locationId of [...allowed].sort((a, b) => a - b)) {
    const location = await networks.lockById(locationId);
    if (!location) continue;
    for (const device of devices) await placeDevice(tx, location, device.id, undefined, held);
  }
}
