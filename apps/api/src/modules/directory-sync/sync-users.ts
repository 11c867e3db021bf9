import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { SessionsRepo } from '#src/modules/auth/sessions.repo.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import { withAdminInvariant } from '#src/modules/users/admin-invariant.js';
import { userIdentity, userObject } from '#src/modules/users/users.events.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import type { SyncUser } from './directory-sync.repo.js';
import type { DirectoryUser } from './providers/directory-client.js';
import { SYNC_ACTOR, SYNC_SOURCE, type SyncSettings, type SyncSummary } from './sync-types.js';

/** A Palisade account the directory knows, with its directory entry (undefined: gone from it). */
export interface KnownUser {
  user: SyncUser;
  entry: DirectoryUser | undefined;
}

const isLastAdmin = (error: unknown) => error instanceof HttpProblem && error.code === 'user.last_admin';

async function setActive(db: Db, user: SyncUser, active: boolean): Promise<void> {
  await withAdminInvariant(db, async (tx) => {
    await new UsersRepo(tx).update(user.id, { isActive: active });
    const object = userObject(user);
    const events: DomainEvent[] = [
      { type: active ? 'user.enabled' : 'user.disabled', actor: SYNC_ACTOR, object, subjectUserId: user.id, details: { ...SYNC_SOURCE } },
    ];
    // As when an admin disables an account: its sessions end at once.
    const ended = active ? 0 : await new SessionsRepo(tx).deleteForUser(user.id);
    if (ended > 0)
      events.push({
        type: 'auth.sessions_ended',
        actor: SYNC_ACTOR,
        object,
        subjectUserId: user.id,
        details: { count: ended, ...SYNC_SOURCE },
      });
    await recordEvent(tx, ...events);
  });
}

async function deleteUser(db: Db, user: SyncUser): Promise<void> {
  await withAdminInvariant(db, async (tx) => {
    await new UsersRepo(tx).delete(user.id);
    await recordEvent(tx, {
      type: 'user.deleted',
      actor: SYNC_ACTOR,
      object: userObject(user),
      subjectUserId: user.id,
      details: { ...userIdentity(user), ...SYNC_SOURCE },
    });
  });
}

/**
 * The directory decides the status of the accounts it knows: active there → active here;
 * suspended or gone there → the provider's behaviour (admin_behavior for members of an admin
 * group, user_behavior for the others): keep, disable or delete. A change that would leave no
 * active admin is skipped and reported. Returns the ids of the accounts it deleted.
 */
export async function syncUserStatus(db: Db, known: KnownUser[], settings: SyncSettings, summary: SyncSummary): Promise<Set<number>> {
  const deleted = new Set<number>();
  for (const { user, entry } of known) {
    if (entry?.isActive) {
      if (!user.isActive) {
        await setActive(db, user, true);
        summary.users_enabled++;
      }
      continue;
    }
    const behavior = user.isAdmin ? settings.adminBehavior : settings.userBehavior;
    if (behavior === 'keep' || (behavior === 'disable' && !user.isActive)) continue;
    try {
      if (behavior === 'disable') {
        await setActive(db, user, false);
        summary.users_disabled++;
      } else {
        await deleteUser(db, user);
        deleted.add(user.id);
        summary.users_deleted++;
      }
    } catch (error) {
      if (!isLastAdmin(error)) throw error;
      summary.skipped.push({ change: behavior, username: user.username, reason: 'last_admin' });
    }
  }
  return deleted;
}
