import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import {
  deviceIps,
  devices,
  groupMembers,
  groups,
  importPendingPeers,
  ipAllocationCursors,
  locationGroups,
  locations,
  users,
} from '#src/db/schema/index.js';
import type { StreamGateway } from '#src/modules/gateways/gateway-events.js';

export type LocationRow = typeof locations.$inferSelect;
export type LocationInsert = typeof locations.$inferInsert;
export interface LocationRecord extends LocationRow {
  allowedGroups: string[];
  /** Imported peers not mapped to users yet. */
  pendingPeers: number;
}
export interface PendingPeer {
  wireguardPubkey: string;
  wireguardIps: string[];
}

export class NetworksRepo {
  constructor(private readonly db: Db) {}

  async list(): Promise<LocationRecord[]> {
    return this.withGroups(
      await this.db
        .select()
        .from(locations)
        .orderBy(asc(sql`lower(${locations.name})`)),
    );
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(locations);
    return row?.n ?? 0;
  }

  async findById(id: number): Promise<LocationRow | undefined> {
    const [row] = await this.db.select().from(locations).where(eq(locations.id, id)).limit(1);
    return row;
  }

  /** The name of the device holding `ip` in the location, if any (names an address conflict). */
  async deviceNameAt(locationId: number, ip: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ name: devices.name })
      .from(deviceIps)
      .innerJoin(devices, eq(devices.id, deviceIps.deviceId))
      .where(and(eq(deviceIps.locationId, locationId), sql`${deviceIps.ip} = ${ip}::inet`))
      .limit(1);
    return row?.name;
  }

  /** The row locked for the rest of the transaction (serialises changes to one location). */
  async lockById(id: number): Promise<LocationRow | undefined> {
    const [row] = await this.db.select().from(locations).where(eq(locations.id, id)).for('update').limit(1);
    return row;
  }

  /**
   * Locks the location rows in ascending id order, the lock order of every change to addresses
   * (see lockLocationsOfUser in device-placement.ts). `no key update` serialises writers as the
   * allocation's `for update` does, without blocking foreign-key checks of readers (statistics
   * recording connections) while a deletion holds it.
   */
  async lockInOrder(ids: Iterable<number>): Promise<void> {
    const sorted = [...new Set(ids)].sort((a, b) => a - b);
    if (sorted.length === 0) return;
    await this.db
      .select({ id: locations.id })
      .from(locations)
      .where(inArray(locations.id, sorted))
      .orderBy(asc(locations.id))
      .for('no key update');
  }

  /**
   * Whether the device still exists, holding it (`key share`, the lock an address's foreign-key
   * check takes) until the transaction ends: a deletion that committed meanwhile is seen as gone.
   */
  async holdDevice(deviceId: number): Promise<boolean> {
    const [row] = await this.db.select({ id: devices.id }).from(devices).where(eq(devices.id, deviceId)).for('key share').limit(1);
    return row !== undefined;
  }

  /** Locations where the devices hold addresses. */
  async locationIdsOfDevices(deviceIds: number[]): Promise<number[]> {
    if (deviceIds.length === 0) return [];
    const rows = await this.db.selectDistinct({ id: deviceIps.locationId }).from(deviceIps).where(inArray(deviceIps.deviceId, deviceIds));
    return rows.map((r) => r.id);
  }

  /** Locations where the user's devices hold addresses. */
  async locationIdsOfUserDevices(userId: number): Promise<number[]> {
    const rows = await this.db
      .selectDistinct({ id: deviceIps.locationId })
      .from(deviceIps)
      .innerJoin(devices, eq(devices.id, deviceIps.deviceId))
      .where(eq(devices.userId, userId));
    return rows.map((r) => r.id);
  }

  /** Locations whose allowed groups include the group. */
  async locationIdsOfGroup(groupId: number): Promise<number[]> {
    return this.locationIdsOfGroups([groupId]);
  }

  /** Locations whose allowed groups include any of the groups. */
  async locationIdsOfGroups(groupIds: number[]): Promise<number[]> {
    if (groupIds.length === 0) return [];
    const rows = await this.db
      .selectDistinct({ id: locationGroups.locationId })
      .from(locationGroups)
      .where(inArray(locationGroups.groupId, groupIds));
    return rows.map((r) => r.id);
  }

  /** Locations the users may use or where their devices hold addresses. */
  async locationIdsOfUsers(userIds: number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const ids = sql`array[${sql.join(
      userIds.map((id) => sql`${id}`),
      sql`, `,
    )}]::int[]`;
    const rows = await queryRows<{ id: number }>(
      this.db,
      sql`select l.id from ${locations} l
           where not exists (select 1 from ${locationGroups} lg where lg.location_id = l.id)
              or exists (select 1 from ${locationGroups} lg join ${groupMembers} gm on gm.group_id = lg.group_id
                          where lg.location_id = l.id and gm.user_id = any(${ids}))
          union
          select di.location_id from ${deviceIps} di join ${devices} d on d.id = di.device_id where d.user_id = any(${ids})`,
    );
    return rows.map((r) => Number(r.id));
  }

  async findByName(name: string): Promise<LocationRow | undefined> {
    const [row] = await this.db.select().from(locations).where(sql`lower(${locations.name}) = lower(${name})`).limit(1);
    return row;
  }

  async withGroups(rows: LocationRow[]): Promise<LocationRecord[]> {
    if (rows.length === 0) return [];
    const links = await this.db
      .select({ locationId: locationGroups.locationId, name: groups.name })
      .from(locationGroups)
      .innerJoin(groups, eq(groups.id, locationGroups.groupId))
      .where(
        inArray(
          locationGroups.locationId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(groups.name));
    const pending = await this.pendingCounts(rows.map((r) => r.id));
    return rows.map((r) => ({
      ...r,
      allowedGroups: links.filter((l) => l.locationId === r.id).map((l) => l.name),
      pendingPeers: pending.get(r.id) ?? 0,
    }));
  }

  // --- Imported peers waiting to be mapped -----------------------------------------------------

  async pendingCounts(locationIds: number[]): Promise<Map<number, number>> {
    const rows = await this.db
      .select({ locationId: importPendingPeers.locationId, n: sql<number>`count(*)`.mapWith(Number) })
      .from(importPendingPeers)
      .where(inArray(importPendingPeers.locationId, locationIds))
      .groupBy(importPendingPeers.locationId);
    return new Map(rows.map((r) => [r.locationId, r.n]));
  }

  async pendingPeers(locationId: number): Promise<PendingPeer[]> {
    return this.db
      .select({ wireguardPubkey: importPendingPeers.wireguardPubkey, wireguardIps: importPendingPeers.wireguardIps })
      .from(importPendingPeers)
      .where(eq(importPendingPeers.locationId, locationId))
      .orderBy(asc(importPendingPeers.position));
  }

  async insertPendingPeers(locationId: number, peers: readonly PendingPeer[]): Promise<void> {
    const rows = peers.map((p, position) => ({ locationId, position, wireguardPubkey: p.wireguardPubkey, wireguardIps: p.wireguardIps }));
    for (let i = 0; i < rows.length; i += 5000)
      await this.db
        .insert(importPendingPeers)
        .values(rows.slice(i, i + 5000))
        .onConflictDoNothing();
  }

  async deletePendingPeers(locationId: number, pubkeys: readonly string[]): Promise<void> {
    if (pubkeys.length === 0) return;
    await this.db
      .delete(importPendingPeers)
      .where(and(eq(importPendingPeers.locationId, locationId), inArray(importPendingPeers.wireguardPubkey, [...pubkeys])));
  }

  async insert(values: LocationInsert): Promise<LocationRow> {
    const [row] = await this.db.insert(locations).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(id: number, values: Partial<LocationInsert>): Promise<void> {
    await this.db
      .update(locations)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(locations.id, id));
  }

  async delete(id: number): Promise<void> {
    await this.db.delete(locations).where(eq(locations.id, id));
  }

  /** The location's gateways that a stream holds (their rows go with the location). */
  async connectedGateways(locationId: number): Promise<StreamGateway[]> {
    return queryRows<StreamGateway>(
      this.db,
      sql`select id, gateway_id as "gatewayId", name, hostname, version from gateways
           where location_id = ${locationId} and stream_id is not null order by id for update`,
    );
  }

  async setAllowedGroups(locationId: number, groupIds: number[]): Promise<void> {
    await this.db.delete(locationGroups).where(eq(locationGroups.locationId, locationId));
    if (groupIds.length > 0) await this.db.insert(locationGroups).values(groupIds.map((groupId) => ({ locationId, groupId })));
  }

  /** Whether the location has network devices (they cannot use an MFA-protected location, spec §6). */
  async hasNetworkDevices(locationId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.kind, 'network'), eq(devices.locationId, locationId)))
      .limit(1);
    return row !== undefined;
  }

  /** Ids of the locations a user may use: no allowed groups, or a shared group. */
  async locationIdsForUser(userId: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: locations.id })
      .from(locations)
      .where(
        sql`not exists (select 1 from ${locationGroups} lg where lg.location_id = ${locations.id})
          or exists (select 1 from ${locationGroups} lg join ${groupMembers} gm on gm.group_id = lg.group_id
                     where lg.location_id = ${locations.id} and gm.user_id = ${userId})`,
      );
    return rows.map((r) => r.id);
  }

  /** User devices whose owner may use the location. */
  async eligibleUserDeviceIds(locationId: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: devices.id })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.userId))
      .where(
        and(
          eq(devices.kind, 'user'),
          sql`(not exists (select 1 from ${locationGroups} lg where lg.location_id = ${locationId})
            or exists (select 1 from ${locationGroups} lg join ${groupMembers} gm on gm.group_id = lg.group_id
                       where lg.location_id = ${locationId} and gm.user_id = ${users.id}))`,
        ),
      )
      .orderBy(asc(devices.id));
    return rows.map((r) => r.id);
  }

  // --- IP assignment -------------------------------------------------------------------------

  async ipsOfLocation(locationId: number): Promise<{ deviceId: number; ip: string }[]> {
    return this.db
      .select({ deviceId: deviceIps.deviceId, ip: sql<string>`host(${deviceIps.ip})` })
      .from(deviceIps)
      .where(eq(deviceIps.locationId, locationId));
  }

  async deleteIp(locationId: number, ip: string): Promise<void> {
    await this.db.delete(deviceIps).where(and(eq(deviceIps.locationId, locationId), sql`${deviceIps.ip} = ${ip}::inet`));
  }

  async deviceIdsInLocation(locationId: number): Promise<number[]> {
    const rows = await this.db.selectDistinct({ id: deviceIps.deviceId }).from(deviceIps).where(eq(deviceIps.locationId, locationId));
    return rows.map((r) => r.id);
  }

  async isIpTaken(locationId: number, ip: string): Promise<boolean> {
    const [row] = await this.db
      .select({ one: sql`1` })
      .from(deviceIps)
      .where(and(eq(deviceIps.locationId, locationId), sql`${deviceIps.ip} = ${ip}::inet`))
      .limit(1);
    return row !== undefined;
  }

  async insertIp(locationId: number, deviceId: number, ip: string): Promise<void> {
    await this.db.insert(deviceIps).values({ locationId, deviceId, ip });
  }

  async insertIps(rows: { locationId: number; deviceId: number; ip: string }[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 5000) await this.db.insert(deviceIps).values(rows.slice(i, i + 5000));
  }

  async deleteIps(locationId: number, deviceIds?: number[], networkCidr?: string): Promise<void> {
    await this.db
      .delete(deviceIps)
      .where(
        and(
          eq(deviceIps.locationId, locationId),
          deviceIds ? inArray(deviceIps.deviceId, deviceIds) : undefined,
          networkCidr ? sql`${deviceIps.ip} <<= ${networkCidr}::inet` : undefined,
        ),
      );
  }

  /**
   * One call of `palisade_allocate_ip` (migration 0007): the first free address of `network`
   * between `first` and `last`, skipping `own`, `reserved` and the addresses of the location's
   * imported peers still waiting to be mapped; taken when `take` (under the
   * location row lock, which the function takes). Undefined when the network is full.
   */
  async allocate(input: {
    locationId: number;
    network: string;
    first: string;
    last: string;
    own: string;
    reserved: readonly string[];
    take: boolean;
  }): Promise<string | undefined> {
    const [row] = await queryRows<{ ip: string | null }>(
      this.db,
      sql`select host(palisade_allocate_ip(${input.locationId}::int, ${input.network}::text, ${input.first}::inet,
        ${input.last}::inet, ${input.own}::inet,
        ${`{${input.reserved.join(',')}}`}::inet[] || array(select unnest(p.wireguard_ips)::inet from ${importPendingPeers} p
          where p.location_id = ${input.locationId}::int), ${input.take}::boolean)) as ip`,
    );
    return row?.ip ?? undefined;
  }

  async dropCursorsExcept(locationId: number, networks: string[]): Promise<void> {
    await this.db
      .delete(ipAllocationCursors)
      .where(and(eq(ipAllocationCursors.locationId, locationId), notInArray(ipAllocationCursors.network, networks)));
  }
}
