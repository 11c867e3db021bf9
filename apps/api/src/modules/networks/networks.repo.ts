import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import {
  deviceIps,
  devices,
  groupMembers,
  groups,
  ipAllocationCursors,
  ipFreeHoles,
  locationGroups,
  locations,
  users,
} from '#src/db/schema/index.js';

export type LocationRow = typeof locations.$inferSelect;
export type LocationInsert = typeof locations.$inferInsert;
export interface LocationRecord extends LocationRow {
  allowedGroups: string[];
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

  /** The row locked for the rest of the transaction (serialises changes to one location). */
  async lockById(id: number): Promise<LocationRow | undefined> {
    const [row] = await this.db.select().from(locations).where(eq(locations.id, id)).for('update').limit(1);
    return row;
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
    return rows.map((r) => ({ ...r, allowedGroups: links.filter((l) => l.locationId === r.id).map((l) => l.name) }));
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

  async setAllowedGroups(locationId: number, groupIds: number[]): Promise<void> {
    await this.db.delete(locationGroups).where(eq(locationGroups.locationId, locationId));
    if (groupIds.length > 0) await this.db.insert(locationGroups).values(groupIds.map((groupId) => ({ locationId, groupId })));
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

  /** Taken addresses at or after `from` inside the network, in address order. */
  async takenFrom(locationId: number, from: string, last: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ ip: sql<string>`host(${deviceIps.ip})` })
      .from(deviceIps)
      .where(and(eq(deviceIps.locationId, locationId), sql`${deviceIps.ip} >= ${from}::inet and ${deviceIps.ip} <= ${last}::inet`))
      .orderBy(asc(deviceIps.ip))
      .limit(limit);
    return rows.map((r) => r.ip);
  }

  /** Locks the network's allocation cursor, creating it at `initial` the first time. */
  async lockCursor(locationId: number, network: string, initial: string): Promise<string> {
    const select = () =>
      this.db
        .select({ nextIp: sql<string>`host(${ipAllocationCursors.nextIp})` })
        .from(ipAllocationCursors)
        .where(and(eq(ipAllocationCursors.locationId, locationId), eq(ipAllocationCursors.network, network)))
        .for('update');
    const [existing] = await select();
    if (existing) return existing.nextIp;
    await this.db.insert(ipAllocationCursors).values({ locationId, network, nextIp: initial }).onConflictDoNothing();
    const [row] = await select();
    if (!row) throw new Error('allocation cursor missing');
    return row.nextIp;
  }

  async readCursor(locationId: number, network: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ nextIp: sql<string>`host(${ipAllocationCursors.nextIp})` })
      .from(ipAllocationCursors)
      .where(and(eq(ipAllocationCursors.locationId, locationId), eq(ipAllocationCursors.network, network)));
    return row?.nextIp;
  }

  /** The lowest free addresses below the high-water mark. */
  async lowestHoles(locationId: number, network: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ ip: sql<string>`host(${ipFreeHoles.ip})` })
      .from(ipFreeHoles)
      .where(and(eq(ipFreeHoles.locationId, locationId), eq(ipFreeHoles.network, network)))
      .orderBy(asc(ipFreeHoles.ip))
      .limit(limit);
    return rows.map((r) => r.ip);
  }

  async deleteHole(locationId: number, network: string, ip: string): Promise<void> {
    await this.db
      .delete(ipFreeHoles)
      .where(and(eq(ipFreeHoles.locationId, locationId), eq(ipFreeHoles.network, network), sql`${ipFreeHoles.ip} = ${ip}::inet`));
  }

  async insertHoles(locationId: number, network: string, ips: string[]): Promise<void> {
    if (ips.length === 0) return;
    await this.db
      .insert(ipFreeHoles)
      .values(ips.map((ip) => ({ locationId, network, ip })))
      .onConflictDoNothing();
  }

  async setCursor(locationId: number, network: string, nextIp: string): Promise<void> {
    await this.db
      .update(ipAllocationCursors)
      .set({ nextIp })
      .where(and(eq(ipAllocationCursors.locationId, locationId), eq(ipAllocationCursors.network, network)));
  }

  async dropCursorsExcept(locationId: number, networks: string[]): Promise<void> {
    await this.db
      .delete(ipAllocationCursors)
      .where(and(eq(ipAllocationCursors.locationId, locationId), notInArray(ipAllocationCursors.network, networks)));
  }
}
