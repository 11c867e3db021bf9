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
import { syncUserDevices } from '#src/modules/networks/device-placement.js';
import { withAdminInvariant } from '#src/modules/users/admin-invariant.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
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

/** Resolves usernames to ids; unknown names are a 400 naming them. */
async function resolveUsers(tx: Db, usernames: string[], path: string): Promise<number[]> {
  // One query for the whole list: a body may name thousands of users.
  const found = await new UsersRepo(tx).findManyByUsername(usernames);
  const known = new Set(found.map((u) => u.username.toLowerCase()));
  const missing = [...new Set(usernames.map((u) => u.toLowerCase()))].filter((u) => !known.has(u));
  const ids = found.map((u) => u.id);
  if (missing.length > 0) {
    const shown = missing.length > 20 ? `${missing.slice(0, 20).join(', ')} and ${missing.length - 20} more` : missing.join(', ');
    throw new HttpProblem(400, 'validation.failed', `Unknown users: ${shown}`, [userNotFoundField(path, shown)]);
  }
  return ids;
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

  async create(body: CreateGroupBody): Promise<Group> {
    if (await this.#repo.findByName(body.name)) throw nameTaken();
    const created = await this.db
      .transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const repo = new GroupsRepo(tx);
        const memberIds = await resolveUsers(tx, body.members ?? [], 'members');
        const row = await repo.insert(body.name, body.is_admin ?? false);
        await repo.addMembers(memberIds.map((userId) => ({ groupId: row.id, userId })));
        await syncDevicesOf(tx, memberIds);
        return row;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, 'groups_name_lower_key')) throw nameTaken();
        throw error;
      });
    return this.get(created.name);
  }

  async update(name: string, body: UpdateGroupBody): Promise<Group> {
    const group = await this.#require(name);
    if (body.name.toLowerCase() !== group.name.toLowerCase()) {
      // The update schema lets an existing group keep a name that became reserved; a rename may not.
      if (isReservedGroupName(body.name)) throw reservedName();
      if (await this.#repo.findByName(body.name)) throw nameTaken();
    }
    await withAdminInvariant(this.db, async (tx) => {
      const repo = new GroupsRepo(tx);
      await repo.update(group.id, { name: body.name, ...(body.is_admin !== undefined ? { isAdmin: body.is_admin } : {}) });
      if (body.members !== undefined) {
        const before = (await repo.withMembers([group]))[0]?.members ?? [];
        const after = await resolveUsers(tx, body.members, 'members');
        await repo.replaceMembers(group.id, after);
        await syncDevicesOf(tx, [...after, ...(await resolveUsers(tx, before, 'members'))]);
      }
    }).catch((error: unknown) => {
      if (isUniqueViolation(error, 'groups_name_lower_key')) throw nameTaken();
      throw error;
    });
    return this.get(body.name);
  }

  async delete(name: string): Promise<void> {
    const group = await this.#require(name);
    await withAdminInvariant(this.db, async (tx) => {
      const repo = new GroupsRepo(tx);
      const members = (await repo.withMembers([group]))[0]?.members ?? [];
      await repo.delete(group.id);
      await syncDevicesOf(tx, await resolveUsers(tx, members, 'members'));
    });
  }

  async assign(body: GroupsAssignBody): Promise<void> {
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
      const userIds = await resolveUsers(tx, body.users, 'users');
      await repo.addMembers(groups.flatMap((g) => userIds.map((userId) => ({ groupId: g.id, userId }))));
      await syncDevicesOf(tx, userIds);
    });
  }

  async addMember(groupName: string, username: string): Promise<Group> {
    const group = await this.#require(groupName);
    const user = await new UsersRepo(this.db).findByUsername(username);
    if (!user) {
      throw new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`, [userNotFoundField('username', username)]);
    }
    await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      await new GroupsRepo(tx).addMembers([{ groupId: group.id, userId: user.id }]);
      await syncDevicesOf(tx, [user.id]);
    });
    return this.get(group.name);
  }

  async removeMember(groupName: string, username: string): Promise<void> {
    const group = await this.#require(groupName);
    const user = await new UsersRepo(this.db).findByUsername(username);
    if (!user) throw new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`);
    await withAdminInvariant(this.db, async (tx) => {
      const removed = await new GroupsRepo(tx).removeMember(group.id, user.id);
      if (!removed) throw new HttpProblem(404, 'group.member_not_found', `'${username}' is not a member of '${group.name}'.`);
      await syncDevicesOf(tx, [user.id]);
    });
  }
}
