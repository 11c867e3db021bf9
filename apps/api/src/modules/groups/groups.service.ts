import {
  type CreateGroupBody,
  type Group,
  type GroupInfo,
  type GroupsAssignBody,
  isReservedGroupName,
  type UpdateGroupBody,
} from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { isUniqueViolation } from '#src/lib/db-errors.js';
import { HttpProblem } from '#src/lib/problem.js';
import { DevicesRepo } from '#src/modules/devices/devices.repo.js';
import { type EventActor, userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { lockLocationsOfUser, lockLocationsOfUsers, syncLocation, syncUserDevices } from '#src/modules/networks/device-placement.js';
import { NetworksRepo } from '#src/modules/networks/networks.repo.js';
import { withAdminInvariant } from '#src/modules/users/admin-invariant.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { groupObject, memberEvent } from './groups.events.js';
import { type GroupRecord, type GroupRow, GroupsRepo } from './groups.repo.js';

const toGroup = (g: GroupRecord): Group => ({ name: g.name, members: g.members, is_admin: g.isAdmin });
const toGroupInfo = (g: GroupRecord): GroupInfo => ({ id: g.id, ...toGroup(g) });

const nameTaken = () =>
  new HttpProblem(400, 'group.name_taken', 'Name already taken.', [{ path: 'name', code: 'name_taken', message: 'Name already taken' }]);
const groupNotFound = (name: string) => new HttpProblem(404, 'group.not_found', `Group '${name}' does not exist.`);

/** A field error naming users that do not exist (the console shows it next to the field). */
const userNotFoundField = (path: string, username: string) => ({
  path,
  code: 'user.not_found',
  message: `User not found: ${username}`,
  params: { username },
});

const reservedName = () =>
  new HttpProblem(400, 'validation.failed', 'This group name is reserved.', [
    { path: 'name', code: 'reserved', message: 'This name is reserved' },
  ]);

type UserRef = { id: number; username: string };

/** Resolves usernames to users; unknown names are a 400 naming them. */
async function resolveUsers(tx: Db, usernames: string[], path: string): Promise<UserRef[]> {
  // One query for the whole list: a body may name thousands of users.
  const found = await new UsersRepo(tx).findManyByUsername(usernames);
  const known = new Set(found.map((u) => u.username.toLowerCase()));
  const missing = [...new Set(usernames.map((u) => u.toLowerCase()))].filter((u) => !known.has(u));
  if (missing.length > 0) {
    const shown = missing.length > 20 ? `${missing.slice(0, 20).join(', ')} and ${missing.length - 20} more` : missing.join(', ');
    throw new HttpProblem(400, 'validation.failed', `Unknown users: ${shown}`, [userNotFoundField(path, shown)]);
  }
  return found;
}

const ids = (list: UserRef[]) => list.map((u) => u.id);

/** `group.member_added` for the pairs that were inserted (already a member adds nothing). */
function addedEvents(by: EventActor, groups: GroupRow[], users: UserRef[], inserted: { groupId: number; userId: number }[]): DomainEvent[] {
  return inserted.flatMap((pair) => {
    const group = groups.find((g) => g.id === pair.groupId);
    const user = users.find((u) => u.id === pair.userId);
    return group && user ? [memberEvent('group.member_added', by, group, user)] : [];
  });
}

/** Group membership decides which locations a user's devices join (location allowed groups). */
async function syncDevicesOf(tx: Db, userIds: number[]): Promise<void> {
  for (const userId of await new DevicesRepo(tx).usersWithDevices([...new Set(userIds)])) await syncUserDevices(tx, userId);
}

export class GroupsService {
  readonly #repo: GroupsRepo;

  constructor(private readonly db: Db) {
    this.#repo = new GroupsRepo(db);
  }

  async list(): Promise<Group[]> {
    return (await this.#repo.list()).map(toGroup);
  }

  async listInfo(): Promise<GroupInfo[]> {
    return (await this.#repo.list()).map(toGroupInfo);
  }

  async #require(name: string, repo = this.#repo): Promise<GroupRow> {
    const row = await repo.findByName(name);
    if (!row) throw groupNotFound(name);
    return row;
  }

  async get(name: string): Promise<Group> {
    const [record] = await this.#repo.withMembers([await this.#require(name)]);
    if (!record) throw groupNotFound(name);
    return toGroup(record);
  }

  async create(actor: Actor, body: CreateGroupBody): Promise<Group> {
    if (await this.#repo.findByName(body.name)) throw nameTaken();
    const by = userActor(actor);
    const created = await this.db
      .transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const repo = new GroupsRepo(tx);
        const members = await resolveUsers(tx, body.members ?? [], 'members');
        await lockLocationsOfUsers(tx, ids(members));
        const row = await repo.insert(body.name, body.is_admin ?? false);
        const inserted = await repo.addMembers(members.map((u) => ({ groupId: row.id, userId: u.id })));
        await syncDevicesOf(tx, ids(members));
        await recordEvent(
          tx,
          { type: 'group.created', actor: by, object: groupObject(row), details: { is_admin: row.isAdmin } },
          ...addedEvents(by, [row], members, inserted),
        );
        return row;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, 'groups_name_lower_key')) throw nameTaken();
        throw error;
      });
    return this.get(created.name);
  }

  async update(actor: Actor, name: string, body: UpdateGroupBody): Promise<Group> {
    const group = await this.#require(name);
    if (body.name.toLowerCase() !== group.name.toLowerCase()) {
      // The update schema lets an existing group keep a name that became reserved; a rename may not.
      if (isReservedGroupName(body.name)) throw reservedName();
      if (await this.#repo.findByName(body.name)) throw nameTaken();
    }
    const by = userActor(actor);
    const renamed = { id: group.id, name: body.name };
    await withAdminInvariant(this.db, async (tx) => {
      const repo = new GroupsRepo(tx);
      const events: DomainEvent[] = [];
      const membership =
        body.members === undefined
          ? undefined
          : {
              before: await resolveUsers(tx, (await repo.withMembers([group]))[0]?.members ?? [], 'members'),
              after: await resolveUsers(tx, body.members, 'members'),
            };
      if (membership) {
        await lockLocationsOfUsers(
          tx,
          [...ids(membership.before), ...ids(membership.after)],
          await new NetworksRepo(tx).locationIdsOfGroup(group.id),
        );
      }
      await repo.update(group.id, { name: body.name, ...(body.is_admin !== undefined ? { isAdmin: body.is_admin } : {}) });
      if (body.name !== group.name) {
        events.push({
          type: 'group.renamed',
          actor: by,
          object: groupObject(renamed),
          details: { old_name: group.name, new_name: body.name },
        });
      }
      if (body.is_admin !== undefined && body.is_admin !== group.isAdmin) {
        events.push({ type: 'group.admin_changed', actor: by, object: groupObject(renamed), details: { is_admin: body.is_admin } });
      }
      if (membership) {
        const { before, after } = membership;
        await repo.replaceMembers(group.id, ids(after));
        await syncDevicesOf(tx, [...ids(after), ...ids(before)]);
        const had = new Set(ids(before));
        const has = new Set(ids(after));
        events.push(
          ...after.filter((u) => !had.has(u.id)).map((u) => memberEvent('group.member_added', by, renamed, u)),
          ...before.filter((u) => !has.has(u.id)).map((u) => memberEvent('group.member_removed', by, renamed, u)),
        );
      }
      await recordEvent(tx, ...events);
    }).catch((error: unknown) => {
      if (isUniqueViolation(error, 'groups_name_lower_key')) throw nameTaken();
      throw error;
    });
    return this.get(body.name);
  }

  async delete(actor: Actor, name: string): Promise<void> {
    const group = await this.#require(name);
    await withAdminInvariant(this.db, async (tx) => {
      const repo = new GroupsRepo(tx);
      const members = (await repo.withMembers([group]))[0]?.members ?? [];
      const users = await resolveUsers(tx, members, 'members');
      const networks = new NetworksRepo(tx);
      const restricted = await networks.locationIdsOfGroup(group.id);
      await lockLocationsOfUsers(tx, ids(users), restricted);
      await repo.delete(group.id);
      await syncDevicesOf(tx, ids(users));
      // A location this group was the only allowed group of is open to everyone now: every
      // user device joins it (a location with other allowed groups keeps its devices).
      for (const id of [...restricted].sort((a, b) => a - b)) {
        const location = await networks.lockById(id);
        if (location) await syncLocation(tx, location);
      }
      await recordEvent(tx, {
        type: 'group.deleted',
        actor: userActor(actor),
        object: groupObject(group),
        details: { is_admin: group.isAdmin, members: members.length },
      });
    });
  }

  async assign(actor: Actor, body: GroupsAssignBody): Promise<void> {
    await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const repo = new GroupsRepo(tx);
      const groups = await repo.findManyByName(body.groups);
      const missing = body.groups.filter((g) => !groups.some((f) => f.name.toLowerCase() === g.toLowerCase()));
      if (missing.length > 0) {
        throw new HttpProblem(400, 'group.not_found', `Unknown groups: ${missing.join(', ')}`, [
          {
            path: 'groups',
            code: 'group.not_found',
            message: `Group not found: ${missing.join(', ')}`,
            params: { name: missing.join(', ') },
          },
        ]);
      }
      const users = await resolveUsers(tx, body.users, 'users');
      await lockLocationsOfUsers(tx, ids(users), await new NetworksRepo(tx).locationIdsOfGroups(groups.map((g) => g.id)));
      const inserted = await repo.addMembers(groups.flatMap((g) => users.map((u) => ({ groupId: g.id, userId: u.id }))));
      await syncDevicesOf(tx, ids(users));
      await recordEvent(tx, ...addedEvents(userActor(actor), groups, users, inserted));
    });
  }

  async addMember(actor: Actor, groupName: string, username: string): Promise<Group> {
    const group = await this.#require(groupName);
    const user = await new UsersRepo(this.db).findByUsername(username);
    if (!user) {
      throw new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`, [userNotFoundField('username', username)]);
    }
    await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await lockLocationsOfUser(tx, user.id, await new NetworksRepo(tx).locationIdsOfGroup(group.id));
      const inserted = await new GroupsRepo(tx).addMembers([{ groupId: group.id, userId: user.id }]);
      await syncDevicesOf(tx, [user.id]);
      await recordEvent(tx, ...addedEvents(userActor(actor), [group], [user], inserted));
    });
    return this.get(group.name);
  }

  async removeMember(actor: Actor, groupName: string, username: string): Promise<void> {
    const group = await this.#require(groupName);
    const user = await new UsersRepo(this.db).findByUsername(username);
    if (!user) throw new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`);
    await withAdminInvariant(this.db, async (tx) => {
      await lockLocationsOfUser(tx, user.id, await new NetworksRepo(tx).locationIdsOfGroup(group.id));
      const removed = await new GroupsRepo(tx).removeMember(group.id, user.id);
      if (!removed) throw new HttpProblem(404, 'group.member_not_found', `'${username}' is not a member of '${group.name}'.`);
      await syncDevicesOf(tx, [user.id]);
      await recordEvent(tx, memberEvent('group.member_removed', userActor(actor), group, user));
    });
  }
}
