import type { Db } from '#src/db/client.js';
import { isUniqueViolation } from '#src/lib/db-errors.js';
import { HttpProblem } from '#src/lib/problem.js';
import { SessionsRepo } from '#src/modules/auth/sessions.repo.js';
import { DevicesRepo } from '#src/modules/devices/devices.repo.js';
import type { EventActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { groupObject, memberEvent } from '#src/modules/groups/groups.events.js';
import { GroupsRepo } from '#src/modules/groups/groups.repo.js';
import { lockLocationsOfUsers, syncUserDevices } from '#src/modules/networks/device-placement.js';
import { NetworksRepo } from '#src/modules/networks/networks.repo.js';
import { withAdminInvariant } from '#src/modules/users/admin-invariant.js';
import { userIdentity, userObject } from '#src/modules/users/users.events.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import type { LdapChange, PalisadeChange, SyncAttributes } from './sync-model.js';

/** A change an applier could not make, and why (the run reports it; the next run tries again). */
export interface FailedChange {
  change: PalisadeChange | LdapChange;
  code: string;
  message: string;
}

export interface ApplyOutcome {
  applied: number;
  failed: FailedChange[];
}

const SOURCE = { source: 'ldap' } as const;
const BATCH = 250;

/**
 * Makes the Palisade half of a plan: batches of changes, each batch one transaction with its
 * events under the admin invariant (so no sync can end the last active admin whatever the plan
 * said). A batch that fails is retried change by change, so one bad change fails alone.
 */
export async function applyPalisadeChanges(db: Db, actor: EventActor, changes: PalisadeChange[]): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = { applied: 0, failed: [] };
  for (let i = 0; i < changes.length; i += BATCH) {
    const batch = changes.slice(i, i + BATCH);
    try {
      await applyBatch(db, actor, batch);
      outcome.applied += batch.length;
    } catch {
      for (const change of batch) {
        try {
          await applyBatch(db, actor, [change]);
          outcome.applied += 1;
        } catch (error) {
          outcome.failed.push(failure(change, error));
        }
      }
    }
  }
  return outcome;
}

function failure(change: PalisadeChange, error: unknown): FailedChange {
  if (error instanceof HttpProblem) return { change, code: error.code, message: error.message };
  if (isUniqueViolation(error, 'users_username_lower_key'))
    return { change, code: 'user.username_taken', message: 'Username already in use.' };
  if (isUniqueViolation(error, 'users_email_lower_key')) return { change, code: 'user.email_taken', message: 'Email already in use.' };
  return { change, code: 'ldap.sync_failed', message: error instanceof Error ? error.message : String(error) };
}

async function applyBatch(db: Db, actor: EventActor, batch: PalisadeChange[]): Promise<void> {
  await withAdminInvariant(db, async (tx) => {
    await lockLocationsOfBatch(tx, batch);
    const events: DomainEvent[] = [];
    const touched: number[] = [];
    for (const change of batch) events.push(...(await applyOne(tx, actor, change, touched)));
    const withDevices = touched.length > 0 ? await new DevicesRepo(tx).usersWithDevices([...new Set(touched)]) : [];
    for (const userId of withDevices) await syncUserDevices(tx, userId);
    await recordEvent(tx, ...events);
  });
}

/**
 * Before the batch's first write, the locations its changes may touch, in id order (lock order,
 * see lockLocationsOfUser): those of the users it disables, deletes or moves between groups, and
 * those the groups it changes open. New users and groups have none yet.
 */
async function lockLocationsOfBatch(tx: Db, batch: PalisadeChange[]): Promise<void> {
  const userIds = new Set<number>();
  const groupIds = new Set<number>();
  const users = new UsersRepo(tx);
  const groups = new GroupsRepo(tx);
  for (const change of batch) {
    if ('userId' in change) userIds.add(change.userId);
    if (change.kind !== 'add_member' && change.kind !== 'remove_member') continue;
    const user = await users.findByUsername(change.username);
    if (user) userIds.add(user.id);
    const group = await groups.findByName(change.group);
    if (group) groupIds.add(group.id);
  }
  if (userIds.size === 0) return;
  await lockLocationsOfUsers(tx, [...userIds], await new NetworksRepo(tx).locationIdsOfGroups([...groupIds]));
}

const userValues = (set: Partial<SyncAttributes>) => ({
  ...(set.username !== undefined ? { username: set.username } : {}),
  ...(set.firstName !== undefined ? { firstName: set.firstName } : {}),
  ...(set.lastName !== undefined ? { lastName: set.lastName } : {}),
  ...(set.email !== undefined ? { email: set.email } : {}),
  ...(set.phone !== undefined ? { phone: set.phone || null } : {}),
});

const FIELD_NAMES: Record<keyof SyncAttributes, string> = {
  username: 'username',
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
};

/** The RDN value of a DN (`uid=ann,ou=people` → `ann`), unescaped. */
export function rdnValueOf(dn: string): string {
  const match = /^[^=]+=((?:\\.|[^,])*)/.exec(dn);
  return (match?.[1] ?? '').replace(/\\(.)/g, '$1');
}

async function applyOne(tx: Db, actor: EventActor, change: PalisadeChange, touched: number[]): Promise<DomainEvent[]> {
  const users = new UsersRepo(tx);
  switch (change.kind) {
    case 'create_user': {
      const { user, dn, isActive } = change;
      const row = await users.insert({ ...user, phone: user.phone || null, isActive, ldapDn: dn, ldapRdn: rdnValueOf(dn) });
      const created: DomainEvent = {
        type: 'user.created',
        actor,
        object: userObject(row),
        subjectUserId: row.id,
        details: { ...userIdentity(row), ...SOURCE },
      };
      return change.isActive
        ? [created]
        : [created, { type: 'user.disabled', actor, object: userObject(row), subjectUserId: row.id, details: SOURCE }];
    }
    case 'update_user': {
      const row = await users.update(change.userId, userValues(change.set));
      if (!row) throw notFound(change.username);
      const fields = Object.keys(change.set).map((k) => FIELD_NAMES[k as keyof SyncAttributes]);
      return [{ type: 'user.modified', actor, object: userObject(row), subjectUserId: row.id, details: { fields, ...SOURCE } }];
    }
    case 'link_user': {
      const row = await users.update(change.userId, { ldapDn: change.dn, ldapRdn: rdnValueOf(change.dn) });
      if (!row) throw notFound(change.username);
      return [
        { type: 'user.modified', actor, object: userObject(row), subjectUserId: row.id, details: { fields: ['ldap_dn'], ...SOURCE } },
      ];
    }
    case 'disable_user':
    case 'enable_user':
      return setActive(tx, actor, change.userId, change.kind === 'enable_user', change.username);
    case 'delete_user': {
      const row = await users.findById(change.userId);
      if (!row) throw notFound(change.username);
      await users.delete(row.id);
      return [
        { type: 'user.deleted', actor, object: userObject(row), subjectUserId: row.id, details: { ...userIdentity(row), ...SOURCE } },
      ];
    }
    case 'create_group': {
      const row = await new GroupsRepo(tx).insert(change.group, false);
      return [{ type: 'group.created', actor, object: groupObject(row), details: { is_admin: false, ...SOURCE } }];
    }
    case 'add_member':
    case 'remove_member':
      return changeMembership(tx, actor, change, touched);
  }
}

async function setActive(tx: Db, actor: EventActor, userId: number, isActive: boolean, username: string): Promise<DomainEvent[]> {
  const row = await new UsersRepo(tx).update(userId, { isActive });
  if (!row) throw notFound(username);
  const object = userObject(row);
  const events: DomainEvent[] = [
    { type: isActive ? 'user.enabled' : 'user.disabled', actor, object, subjectUserId: row.id, details: SOURCE },
  ];
  if (!isActive) {
    // Disabling ends every session of the user at once, as an administrator's disable does.
    const count = await new SessionsRepo(tx).deleteForUser(row.id);
    if (count > 0) events.push({ type: 'auth.sessions_ended', actor, object, subjectUserId: row.id, details: { count, ...SOURCE } });
  }
  return events;
}

async function changeMembership(
  tx: Db,
  actor: EventActor,
  change: Extract<PalisadeChange, { kind: 'add_member' | 'remove_member' }>,
  touched: number[],
): Promise<DomainEvent[]> {
  const user = await new UsersRepo(tx).findByUsername(change.username);
  if (!user) throw notFound(change.username);
  const groups = new GroupsRepo(tx);
  const group = await groups.findByName(change.group);
  if (!group) throw new HttpProblem(404, 'group.not_found', `Group '${change.group}' does not exist.`);
  const done =
    change.kind === 'add_member'
      ? (await groups.addMembers([{ groupId: group.id, userId: user.id }])).length > 0
      : await groups.removeMember(group.id, user.id);
  if (!done) return [];
  touched.push(user.id);
  const event = memberEvent(change.kind === 'add_member' ? 'group.member_added' : 'group.member_removed', actor, group, user);
  return [{ ...event, details: { ...event.details, ...SOURCE } }];
}

const notFound = (username: string) => new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`);
