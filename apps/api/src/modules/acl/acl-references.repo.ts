import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { aclAliases, devices, groups, locations, users } from '#src/db/schema/index.js';

export interface ReferenceQuery {
  /** Lower-cased usernames and group names. */
  userNames: string[];
  groupNames: string[];
  deviceIds: number[];
  locationIds: number[];
  aliasIds: number[];
}

/**
 * Looks up what a rule names: users and groups by name (any case), network devices, locations,
 * deployed aliases. The rows are locked (key share) until the caller's transaction ends, so none of
 * them is deleted before the rule's links to it commit (an alias deletion then sees the new link).
 */
export class AclReferencesRepo {
  constructor(private readonly db: Db) {}

  async lookup(q: ReferenceQuery) {
    const db = this.db;
    // One statement at a time: the caller's transaction runs on one connection.
    const userRows =
      q.userNames.length > 0
        ? await db
            .select({ id: users.id, name: users.username })
            .from(users)
            .where(inArray(sql`lower(${users.username})`, q.userNames))
            .for('key share')
        : [];
    const groupRows =
      q.groupNames.length > 0
        ? await db
            .select({ id: groups.id, name: groups.name })
            .from(groups)
            .where(inArray(sql`lower(${groups.name})`, q.groupNames))
            .for('key share')
        : [];
    const deviceRows =
      q.deviceIds.length > 0
        ? await db
            .select({ id: devices.id })
            .from(devices)
            .where(and(inArray(devices.id, q.deviceIds), eq(devices.kind, 'network')))
            .for('key share')
        : [];
    const locationRows =
      q.locationIds.length > 0
        ? await db.select({ id: locations.id }).from(locations).where(inArray(locations.id, q.locationIds)).for('key share')
        : [];
    const aliasRows =
      q.aliasIds.length > 0
        ? await db
            .select({ id: aclAliases.id, kind: aclAliases.kind, ports: aclAliases.ports, protocols: aclAliases.protocols })
            .from(aclAliases)
            .where(and(inArray(aclAliases.id, q.aliasIds), isNull(aclAliases.parentId)))
            .for('key share')
        : [];
    return { userRows, groupRows, deviceRows, locationRows, aliasRows };
  }
}
