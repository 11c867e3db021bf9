import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { countRows, totalOf } from '#src/db/row-counts.js';
import { queryRows } from '#src/db/rows.js';
import { cliTokens, deviceIps, devices, locations, users } from '#src/db/schema/index.js';

export type DeviceRow = typeof devices.$inferSelect;
export interface DeviceIpRow {
  deviceId: number;
  locationId: number;
  locationName: string;
  /** The location is MFA-protected: the device connects through a VPN session (docs/mfa.md). */
  locationMfa: boolean;
  ip: string;
}

export interface PendingEnrollmentRow {
  id: number;
  spec: { name: string; location_id: number; assigned_ips?: string[]; description?: string };
  created_by: string;
  created_at: Date | string;
  expires_at: Date | string;
  location_name: string | null;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface DevicePageQuery {
  page: number;
  per_page: number;
  search?: string | undefined;
}

/** What the gateways last reported of a device in a location (table device_connections). */
export interface ConnectionRow {
  location_id: number;
  location_name: string;
  latest_handshake: Date | string;
  endpoint: string | null;
  connected_at: Date | string;
  is_active: boolean;
}

/** A user device as the paged list reads it: driver columns, owner name, addresses and connections joined. */
export interface UserDevicePageRow {
  id: number;
  name: string;
  wireguard_pubkey: string;
  user_id: number;
  created_at: Date | string;
  username: string | null;
  ips: { location_id: number; location_name: string; location_mfa: boolean; ip: string }[];
  connections: ConnectionRow[];
}

/** Active: the latest handshake is newer than the location's disconnect threshold. */
const isActive = sql`c.latest_handshake > now() - make_interval(secs => l.peer_disconnect_threshold)`;

function pageConditions(kind: 'user' | 'network', query: DevicePageQuery): SQL[] {
  const conditions: SQL[] = [eq(devices.kind, kind)];
  if (query.search) {
    const pattern = `%${escapeLike(query.search.toLowerCase())}%`;
    // Addresses match by prefix of their text form ("10.1.", "fd00::"), one lookup per device
    // on device_ips_device_idx.
    const ipPrefix = `${escapeLike(query.search.trim().toLowerCase())}%`;
    conditions.push(
      sql`(lower(${devices.name}) like ${pattern} or lower(${devices.wireguardPubkey}) like ${pattern}
        or lower(coalesce(${devices.description}, '')) like ${pattern}
        or exists (select 1 from ${deviceIps} di where di.device_id = ${devices.id} and host(di.ip) like ${ipPrefix})
        or exists (select 1 from ${users} u where u.id = ${devices.userId} and lower(u.username) like ${pattern})
        or exists (select 1 from ${locations} l where l.id = ${devices.locationId} and lower(l.name) like ${pattern}))`,
    );
  }
  return conditions;
}

export class DevicesRepo {
  constructor(private readonly db: Db) {}

  async insert(values: typeof devices.$inferInsert): Promise<DeviceRow> {
    const [row] = await this.db.insert(devices).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async findById(id: number): Promise<DeviceRow | undefined> {
    const [row] = await this.db.select().from(devices).where(eq(devices.id, id)).limit(1);
    return row;
  }

  async findByPubkey(pubkey: string): Promise<DeviceRow | undefined> {
    const [row] = await this.db.select().from(devices).where(eq(devices.wireguardPubkey, pubkey)).limit(1);
    return row;
  }

  async findByPubkeys(pubkeys: string[]): Promise<DeviceRow[]> {
    if (pubkeys.length === 0) return [];
    return this.db.select().from(devices).where(inArray(devices.wireguardPubkey, pubkeys));
  }

  async findUserDeviceByName(userId: number, name: string): Promise<DeviceRow | undefined> {
    const [row] = await this.db
      .select()
      .from(devices)
      .where(and(eq(devices.kind, 'user'), eq(devices.userId, userId), sql`lower(${devices.name}) = lower(${name})`))
      .limit(1);
    return row;
  }

  async findNetworkDeviceByName(name: string): Promise<DeviceRow | undefined> {
    const [row] = await this.db
      .select()
      .from(devices)
      .where(and(eq(devices.kind, 'network'), sql`lower(${devices.name}) = lower(${name})`))
      .limit(1);
    return row;
  }

  async update(id: number, values: Partial<typeof devices.$inferInsert>): Promise<void> {
    await this.db.update(devices).set(values).where(eq(devices.id, id));
  }

  /** Deletes the device; false when it was gone already. */
  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(devices).where(eq(devices.id, id)).returning({ id: devices.id });
    return rows.length > 0;
  }

  /** Which of `userIds` own at least one device (chunked: one query per 10,000 ids). */
  async usersWithDevices(userIds: number[]): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < userIds.length; i += 10_000) {
      const rows = await this.db
        .selectDistinct({ userId: devices.userId })
        .from(devices)
        .where(and(eq(devices.kind, 'user'), inArray(devices.userId, userIds.slice(i, i + 10_000))));
      for (const r of rows) if (r.userId !== null) out.push(r.userId);
    }
    return out;
  }

  async listUserDevicesOf(userId: number): Promise<DeviceRow[]> {
    return this.db
      .select()
      .from(devices)
      .where(and(eq(devices.kind, 'user'), eq(devices.userId, userId)))
      .orderBy(asc(devices.id));
  }

  async ipsOf(deviceIds: number[]): Promise<DeviceIpRow[]> {
    if (deviceIds.length === 0) return [];
    return this.db
      .select({
        deviceId: deviceIps.deviceId,
        locationId: deviceIps.locationId,
        locationName: locations.name,
        locationMfa: locations.mfaEnabled,
        ip: sql<string>`host(${deviceIps.ip})`,
      })
      .from(deviceIps)
      .innerJoin(locations, eq(locations.id, deviceIps.locationId))
      .where(inArray(deviceIps.deviceId, deviceIds))
      .orderBy(asc(deviceIps.locationId), asc(deviceIps.ip));
  }

  /** Connection data of the devices, one row per device and location seen (primary-key lookups). */
  async connectionsOf(deviceIds: number[]): Promise<Map<number, ConnectionRow[]>> {
    if (deviceIds.length === 0) return new Map();
    const rows = await queryRows<ConnectionRow & { device_id: number }>(
      this.db,
      sql`select c.device_id, c.location_id, l.name as location_name, c.latest_handshake, c.endpoint, c.connected_at, ${isActive} as is_active
            from device_connections c join ${locations} l on l.id = c.location_id
           where c.device_id = any(${sql.param(deviceIds)}::int[])`,
    );
    const out = new Map<number, ConnectionRow[]>();
    for (const { device_id, ...row } of rows) out.set(device_id, [...(out.get(device_id) ?? []), row]);
    return out;
  }

  async usernamesOf(userIds: number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, userIds));
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  /** A page of devices of one kind, newest first, with a case-insensitive name/owner search. */
  async page(kind: 'user' | 'network', query: DevicePageQuery): Promise<{ rows: DeviceRow[]; total: number }> {
    const where = and(...pageConditions(kind, query));
    // The page walks the (created_at, id) index and stops after per_page rows; the total is a
    // separate count. One query with count(*) over () would sort every matching row instead.
    const [rows, counted] = await Promise.all([
      this.db
        .select()
        .from(devices)
        .where(where)
        .orderBy(desc(devices.createdAt), desc(devices.id))
        .limit(query.per_page)
        .offset((query.page - 1) * query.per_page),
      this.db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(devices)
        .where(where),
    ]);
    return { rows, total: counted[0]?.n ?? 0 };
  }

  /**
   * A page of user devices with owner names and addresses, and the total, in one statement (the
   * console's device list): the page walks the (created_at, id) index; an unsearched total is the
   * trigger-kept count (migration 0005).
   */
  async userDevicePage(query: DevicePageQuery): Promise<{ rows: UserDevicePageRow[]; total: number }> {
    const conditions = pageConditions('user', query);
    const where = sql`where ${sql.join(conditions, sql` and `)}`;
    const total = totalOf(devices, where, query.search ? undefined : 'devices:user');
    const offset = (query.page - 1) * query.per_page;
    const rows = await queryRows<UserDevicePageRow & { total: string | number }>(
      this.db,
      sql`select p.id, p.name, p.wireguard_pubkey, p.user_id, p.created_at, u.username,
          coalesce(ips.list, '[]') as ips, coalesce(conns.list, '[]') as connections, ${total} as total
        from (
          select ${devices.id}, ${devices.name}, ${devices.wireguardPubkey}, ${devices.userId}, ${devices.createdAt}
          from ${devices} ${where}
          order by ${devices.createdAt} desc, ${devices.id} desc
          limit ${query.per_page} offset ${offset}
        ) p
        left join ${users} u on u.id = p.user_id
        left join lateral (
          select json_agg(json_build_object('location_id', di.location_id, 'location_name', l.name, 'location_mfa', l.mfa_enabled, 'ip', host(di.ip))
            order by di.location_id, di.ip) as list
          from ${deviceIps} di join ${locations} l on l.id = di.location_id
          where di.device_id = p.id
        ) ips on true
        left join lateral (
          select json_agg(json_build_object('location_id', c.location_id, 'location_name', l.name,
            'latest_handshake', c.latest_handshake, 'endpoint', c.endpoint, 'connected_at', c.connected_at,
            'is_active', ${isActive})) as list
          from device_connections c join ${locations} l on l.id = c.location_id
          where c.device_id = p.id
        ) conns on true
        order by p.created_at desc, p.id desc`,
    );
    const counted = rows[0] ? Number(rows[0].total) : offset === 0 ? 0 : await countRows(this.db, devices, where);
    return { rows, total: counted };
  }

  async insertCliToken(values: typeof cliTokens.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(cliTokens).values(values).returning({ id: cliTokens.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** Unused CLI tokens for new network devices, newest first, with their location's name. */
  async pendingEnrollments(): Promise<PendingEnrollmentRow[]> {
    return queryRows<PendingEnrollmentRow>(
      this.db,
      sql`select t.id, t.spec, t.created_by, t.created_at, t.expires_at, l.name as location_name
            from ${cliTokens} t left join ${locations} l on l.id = (t.spec->>'location_id')::int
           where t.device_id is null and t.used_at is null
           order by t.created_at desc, t.id desc`,
    );
  }

  /** Revokes an unused CLI token for a new network device; what it announced, or undefined when there is none. */
  async deletePendingEnrollment(id: number): Promise<PendingEnrollmentRow['spec'] | undefined> {
    const [row] = await this.db
      .delete(cliTokens)
      .where(and(eq(cliTokens.id, id), sql`${cliTokens.deviceId} is null`, sql`${cliTokens.usedAt} is null`))
      .returning({ spec: cliTokens.spec });
    return row?.spec as PendingEnrollmentRow['spec'] | undefined;
  }
}
