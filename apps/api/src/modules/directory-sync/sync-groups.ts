import { groupNameSchema, isReservedGroupName } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { DevicesRepo } from '#src/modules/devices/devices.repo.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { groupObject, memberEvent } from '#src/modules/groups/groups.events.js';
import { type GroupRow, GroupsRepo } from '#src/modules/groups/groups.repo.js';
import { lockLocationsOfUser, lockLocationsOfUsers, syncUserDevices } from '#src/modules/networks/device-placement.js';
import { NetworksRepo } from '#src/modules/networks/networks.repo.js';
import { withAdminInvariant } from '#src/modules/users/admin-invariant.js';
import { DirectorySyncRepo, type SyncUser } from './directory-sync.repo.js';
import type { DirectoryClient, DirectoryGroup } from './providers/directory-client.js';
import { SYNC_ACTOR, SYNC_SOURCE, type SyncSummary } from './sync-types.js';

/** Group membership decides which locations a user's devices join (as in the groups module). */
async function syncDevicesOf(tx: Db, userIds: number[]): Promise<void> {
  for (const userId of await new DevicesRepo(tx).usersWithDevices([...new Set(userIds)])) await syncUserDevices(tx, userId);
}

const withSource = (event: DomainEvent): DomainEvent => ({ ...event, details: { ...event.details, ...SYNC_SOURCE } });

/** The Palisade group of a directory group: found by name (case-insensitive), or created. */
async function ensureGroup(db: Db, name: string, summary: SyncSummary): Promise<GroupRow | undefined> {
  const existing = await new GroupsRepo(db).findByName(name);
  if (existing) return existing;
  if (!groupNameSchema.safeParse(name).success || isReservedGroupName(name)) {
    summary.skipped.push({ change: 'create_group', group: name, reason: 'invalid_group_name' });
    return undefined;
  }
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const row = await new GroupsRepo(tx).insert(name, false);
    await recordEvent(tx, {
      type: 'group.created',
      actor: SYNC_ACTOR,
      object: groupObject(row),
      details: { is_admin: false, ...SYNC_SOURCE },
    });
    summary.groups_created++;
    return row;
  });
}

async function addMembers(db: Db, group: GroupRow, users: SyncUser[]): Promise<number> {
  if (users.length === 0) return 0;
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    // Locations first (lock order, see lockLocationsOfUser): the members' and those the group opens.
    await lockLocationsOfUsers(
      tx,
      users.map((u) => u.id),
      await new NetworksRepo(tx).locationIdsOfGroup(group.id),
    );
    const inserted = await new GroupsRepo(tx).addMembers(users.map((u) => ({ groupId: group.id, userId: u.id })));
    await syncDevicesOf(
      tx,
      inserted.map((p) => p.userId),
    );
    const added = users.filter((u) => inserted.some((p) => p.userId === u.id));
    await recordEvent(tx, ...added.map((u) => withSource(memberEvent('group.member_added', SYNC_ACTOR, group, u))));
    return added.length;
  });
}

/** Removes one member; false when it would leave no active admin (the run reports it). */
async function removeMember(db: Db, group: GroupRow, user: SyncUser): Promise<boolean> {
  try {
    await withAdminInvariant(db, async (tx) => {
      await lockLocationsOfUser(tx, user.id, await new NetworksRepo(tx).locationIdsOfGroup(group.id));
      if (!(await new GroupsRepo(tx).removeMember(group.id, user.id))) return;
      await syncDevicesOf(tx, [user.id]);
      await recordEvent(tx, withSource(memberEvent('group.member_removed', SYNC_ACTOR, group, user)));
    });
    return true;
  } catch (error) {
    if (error instanceof HttpProblem && error.code === 'user.last_admin') return false;
    throw error;
  }
}

/**
 * For each directory group that matches group_match, the Palisade group of the same name
 * (created when missing, never deleted, its admin flag untouched) gets the directory's members
 * among the accounts the directory knows (`known`, by directory user id), and loses the managed
 * accounts (`managed`: known ones, and linked ones gone from the directory) it does not list.
 * Members the directory does not know (local accounts) are left alone.
 */
export async function syncGroups(
  db: Db,
  client: DirectoryClient,
  groups: DirectoryGroup[],
  known: Map<string, SyncUser>,
  managed: SyncUser[],
  summary: SyncSummary,
): Promise<void> {
  const knownIds = new Map(managed.map((u) => [u.id, u]));
  // Directory groups whose names differ only in case feed one Palisade group: their members add up.
  const byName = new Map<string, { name: string; wanted: Map<number, SyncUser> }>();
  for (const directoryGroup of groups) {
    const key = directoryGroup.name.trim().toLowerCase();
    const entry = byName.get(key) ?? { name: directoryGroup.name.trim(), wanted: new Map<number, SyncUser>() };
    byName.set(key, entry);
    for (const id of await client.listGroupMembers(directoryGroup)) {
      const user = known.get(id);
      if (user) entry.wanted.set(user.id, user);
    }
  }
  for (const { name, wanted } of byName.values()) {
    const group = await ensureGroup(db, name, summary);
    if (!group) continue;
    const current = new Set(await new DirectorySyncRepo(db).groupMemberIds(group.id));
    summary.members_added += await addMembers(
      db,
      group,
      [...wanted.values()].filter((u) => !current.has(u.id)),
    );
    for (const id of current) {
      const user = knownIds.get(id);
      if (!user || wanted.has(id)) continue;
      if (await removeMember(db, group, user)) summary.members_removed++;
      else summary.skipped.push({ change: 'remove_member', username: user.username, group: group.name, reason: 'last_admin' });
    }
  }
}
