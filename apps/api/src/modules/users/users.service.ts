import {
  type CreateUserBody,
  isReservedUsername,
  RESERVED_USERNAMES,
  type UpdateUserBody,
  type User,
  type UserList,
  type UserLanguage,
  type UserListQuery,
} from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { isUniqueViolation } from '#src/lib/db-errors.js';
import { hashPassword, verifyPassword } from '#src/lib/password.js';
import { HttpProblem, forbidden } from '#src/lib/problem.js';
import { SessionsRepo } from '#src/modules/auth/sessions.repo.js';
import type { LdapPasswords } from '#src/modules/ldap/sync-password.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent, withEvents } from '#src/modules/events/record-event.js';
import { membershipEvents } from '#src/modules/groups/groups.events.js';
import { GroupsRepo } from '#src/modules/groups/groups.repo.js';
import { lockLocationsOfUser, lockLocationsOfUserDevices, syncUserDevices } from '#src/modules/networks/device-placement.js';
import { NetworksRepo } from '#src/modules/networks/networks.repo.js';
import { withAdminInvariant } from './admin-invariant.js';
import { changedUserFields, userIdentity, userObject } from './users.events.js';
import { listRowToUser, toUser } from './users.mapper.js';
import { type UserRow, UsersRepo } from './users.repo.js';

export interface Actor {
  userId: number;
  username: string;
  isAdmin: boolean;
  sessionId?: string;
  /** Where the request came from (the activity log records it with each event). */
  ip?: string | undefined;
  userAgent?: string | undefined;
}

const usernameTaken = () =>
  new HttpProblem(400, 'user.username_taken', 'Username already in use.', [
    { path: 'username', code: 'username_taken', message: 'Username already in use' },
  ]);
const emailTaken = () =>
  new HttpProblem(400, 'user.email_taken', 'Email already in use.', [
    { path: 'email', code: 'email_taken', message: 'Email already in use' },
  ]);
/**
 * A new username that a static route would shadow (`POST /device/network` is never
 * `POST /device/{username}`): contracts derive the list from the permission table. The create
 * schema refuses them already; this covers renames, which the update schema lets through so that
 * an account created before a word became reserved can still be saved under its own name.
 */
const reservedName = () =>
  new HttpProblem(400, 'validation.failed', 'This username is reserved.', [
    { path: 'username', code: 'reserved', message: 'This name is reserved' },
  ]);

export const userNotFound = (username: string) => new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`);

function uniqueToProblem(error: unknown): never {
  if (isUniqueViolation(error, 'users_username_lower_key')) throw usernameTaken();
  if (isUniqueViolation(error, 'users_email_lower_key')) throw emailTaken();
  throw error;
}

const sameSet = (a: string[], b: string[]) => {
  const x = new Set(a.map((v) => v.toLowerCase()));
  const y = new Set(b.map((v) => v.toLowerCase()));
  return x.size === y.size && [...x].every((v) => y.has(v));
};

export class UsersService {
  readonly #repo: UsersRepo;

  /**
   * `ldapPasswords`: where the passwords of LDAP-linked accounts are checked and changed
   * (modules/ldap); enrollment and password reset write through it too.
   */
  constructor(
    private readonly db: Db,
    readonly ldapPasswords?: LdapPasswords,
  ) {
    this.#repo = new UsersRepo(db);
  }

  async list(query: UserListQuery): Promise<UserList> {
    const { rows, total } = await this.#repo.list(query);
    return { items: rows.map(listRowToUser), page: query.page, per_page: query.per_page, total };
  }

  async require(username: string, repo = this.#repo): Promise<UserRow> {
    const row = await repo.findByUsername(username);
    if (!row) throw userNotFound(username);
    return row;
  }

  async get(username: string): Promise<User> {
    const [record] = await this.#repo.withGroups([await this.require(username)]);
    if (!record) throw userNotFound(username);
    return toUser(record);
  }

  async getById(id: number): Promise<User | undefined> {
    const record = await this.#repo.findRecordById(id);
    return record ? toUser(record) : undefined;
  }

  /**
   * `PUT /me/language`: the console's language of the signed-in user, which their mail follows
   * (docs/mail.md). Records `user.modified` only when it changes.
   */
  async setLanguage(actor: Actor, language: UserLanguage): Promise<void> {
    const target = await this.#repo.findById(actor.userId);
    if (!target) throw forbidden();
    if (target.language === language) return;
    const event: DomainEvent = {
      type: 'user.modified',
      actor: userActor(actor),
      object: userObject(target),
      subjectUserId: target.id,
      details: { fields: ['language'] },
    };
    await this.#repo.updateRecording(target.id, { language }, [event]);
  }

  async isAvailable(username: string): Promise<boolean> {
    return !isReservedUsername(username) && (await this.#repo.findByUsername(username)) === undefined;
  }

  /**
   * Accounts whose name became reserved after they were created (a newer static route shadows
   * it). They keep working on every route that is not shadowed; main.ts logs them at start.
   */
  async findReservedUsernames(): Promise<string[]> {
    return (await this.#repo.findManyByUsername([...RESERVED_USERNAMES])).map((u) => u.username);
  }

  async create(actor: Actor, body: CreateUserBody): Promise<User> {
    if (isReservedUsername(body.username)) throw reservedName();
    if (await this.#repo.findByUsername(body.username)) throw usernameTaken();
    if (await this.#repo.findByEmail(body.email)) throw emailTaken();
    const passwordHash = body.password ? await hashPassword(body.password) : null;
    const row = await withEvents(this.db, async (tx) => {
      const created = await new UsersRepo(tx).insert({
        username: body.username,
        firstName: body.first_name,
        lastName: body.last_name,
        email: body.email,
        phone: body.phone || null,
        passwordHash,
      });
      const event: DomainEvent = {
        type: 'user.created',
        actor: userActor(actor),
        object: userObject(created),
        subjectUserId: created.id,
        details: userIdentity(created),
      };
      return { result: created, events: [event] };
    }).catch(uniqueToProblem);
    return toUser({ ...row, groups: [], isAdmin: false });
  }

  async update(actor: Actor, username: string, body: UpdateUserBody): Promise<User> {
    const target = await this.require(username);
    const [current] = await this.#repo.withGroups([target]);
    if (!current) throw userNotFound(username);
    if (!actor.isAdmin) {
      if (actor.userId !== target.id) throw forbidden();
      if (body.groups !== undefined && !sameSet(body.groups, current.groups)) throw forbidden('Only administrators can change groups.');
      if (body.is_active !== undefined && body.is_active !== current.isActive)
        throw forbidden('Only administrators can change the status.');
    }
    if (body.username.toLowerCase() !== target.username.toLowerCase()) {
      if (isReservedUsername(body.username)) throw reservedName();
      if (await this.#repo.findByUsername(body.username)) throw usernameTaken();
    }
    if (body.email.toLowerCase() !== target.email.toLowerCase() && (await this.#repo.findByEmail(body.email))) {
      throw emailTaken();
    }
    const deactivating = actor.isAdmin && body.is_active === false && target.isActive;
    const activating = actor.isAdmin && body.is_active === true && !target.isActive;
    const changingGroups = actor.isAdmin && body.groups !== undefined && !sameSet(body.groups, current.groups);
    const by = userActor(actor);
    const object = userObject({ id: target.id, username: body.username });
    const values = {
      username: body.username,
      firstName: body.first_name,
      lastName: body.last_name,
      email: body.email,
      phone: body.phone || null,
      ...(actor.isAdmin && body.is_active !== undefined ? { isActive: body.is_active } : {}),
      ...(body.language !== undefined ? { language: body.language } : {}),
    };
    const fields = changedUserFields(current, body, changingGroups, deactivating || activating);
    const modified: DomainEvent[] =
      fields.length > 0 ? [{ type: 'user.modified', actor: by, object, subjectUserId: target.id, details: { fields } }] : [];
    if (!deactivating && !changingGroups) {
      // The common edit: one row and its events in one statement, no lock and no transaction.
      const events = activating ? [...modified, { type: 'user.enabled' as const, actor: by, object, subjectUserId: target.id }] : modified;
      await this.#repo.updateRecording(target.id, values, events).catch(uniqueToProblem);
      return this.get(body.username);
    }
    // Only disabling a user or changing their groups can leave no active admin.
    await withAdminInvariant(this.db, async (tx) => {
      const repo = new UsersRepo(tx);
      const events: DomainEvent[] = [...modified];
      // Locations first (lock order, see lockLocationsOfUser): those of the groups it leaves or joins too.
      const touched = await new GroupsRepo(tx).findManyByName([...current.groups, ...(changingGroups ? (body.groups ?? []) : [])]);
      await lockLocationsOfUser(tx, target.id, await new NetworksRepo(tx).locationIdsOfGroups(touched.map((g) => g.id)));
      await repo.update(target.id, values).catch(uniqueToProblem);
      if (changingGroups && body.groups !== undefined) {
        const found = await new GroupsRepo(tx).findManyByName(body.groups);
        const missing = body.groups.filter((g) => !found.some((f) => f.name.toLowerCase() === g.toLowerCase()));
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
        const before = await new GroupsRepo(tx).findManyByName(current.groups);
        await new GroupsRepo(tx).setUserGroups(
          target.id,
          found.map((g) => g.id),
        );
        await syncUserDevices(tx, target.id);
        events.push(...membershipEvents(by, { id: target.id, username: body.username }, before, found));
      }
      if (deactivating || activating) {
        events.push({ type: deactivating ? 'user.disabled' : 'user.enabled', actor: by, object, subjectUserId: target.id });
      }
      // Disabling ends every session of the user at once.
      if (deactivating) {
        const count = await new SessionsRepo(tx).deleteForUser(target.id);
        if (count > 0) events.push({ type: 'auth.sessions_ended', actor: by, object, subjectUserId: target.id, details: { count } });
      }
      await recordEvent(tx, ...events);
    });
    return this.get(body.username);
  }

  async delete(actor: Actor, username: string): Promise<void> {
    const target = await this.require(username);
    if (target.id === actor.userId) throw new HttpProblem(409, 'user.self_delete', 'You cannot delete your own account.');
    await withAdminInvariant(this.db, async (tx) => {
      await lockLocationsOfUserDevices(tx, target.id);
      await new UsersRepo(tx).delete(target.id);
      await recordEvent(tx, {
        type: 'user.deleted',
        actor: userActor(actor),
        object: userObject(target),
        subjectUserId: target.id,
        details: userIdentity(target),
      });
    });
  }

  /** An admin sets another user's password; the user's sessions end. */
  async setPassword(actor: Actor, username: string, newPassword: string): Promise<void> {
    const target = await this.require(username);
    const ldapDn = await this.ldapPasswords?.linkedDn(target);
    if (ldapDn) await this.ldapPasswords?.write(ldapDn, newPassword);
    // A linked account's password lives in LDAP only.
    const passwordHash = ldapDn ? null : await hashPassword(newPassword);
    await withEvents(this.db, async (tx) => {
      await new UsersRepo(tx).update(target.id, { passwordHash });
      const ended = await new SessionsRepo(tx).deleteForUser(target.id);
      const event: DomainEvent = {
        type: 'user.password_set',
        actor: userActor(actor),
        object: userObject(target),
        subjectUserId: target.id,
        details: { sessions_ended: ended },
      };
      return { result: undefined, events: [event] };
    });
  }

  /** A user changes their own password; other sessions of theirs end, this one stays. */
  async changeOwnPassword(actor: Actor, oldPassword: string, newPassword: string): Promise<void> {
    const me = await this.#repo.findById(actor.userId);
    const ldapDn = me ? await this.ldapPasswords?.linkedDn(me) : undefined;
    const isValid = ldapDn ? await this.ldapPasswords?.verify(ldapDn, oldPassword) : await verifyPassword(me?.passwordHash, oldPassword);
    if (!me || !isValid) {
      throw new HttpProblem(400, 'auth.invalid_password', 'The current password is not correct.', [
        { path: 'old_password', code: 'invalid', message: 'Invalid value' },
      ]);
    }
    if (ldapDn) await this.ldapPasswords?.write(ldapDn, newPassword);
    const passwordHash = ldapDn ? null : await hashPassword(newPassword);
    await withEvents(this.db, async (tx) => {
      await new UsersRepo(tx).update(me.id, { passwordHash });
      const ended = await new SessionsRepo(tx).deleteForUser(me.id, actor.sessionId);
      const event: DomainEvent = {
        type: 'user.password_changed',
        actor: userActor(actor),
        object: userObject(me),
        details: { other_sessions_ended: ended },
      };
      return { result: undefined, events: [event] };
    });
  }
}
