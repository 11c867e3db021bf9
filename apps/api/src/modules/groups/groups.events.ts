import type { EventActor } from '#src/modules/events/event-actor.js';
import type { DomainEvent } from '#src/modules/events/record-event.js';
import type { UserRow } from '#src/modules/users/users.repo.js';
import type { GroupRow } from './groups.repo.js';

type GroupRef = Pick<GroupRow, 'id' | 'name'>;
type UserRef = Pick<UserRow, 'id' | 'username'>;

/** The activity-log object of a group. */
export const groupObject = (group: GroupRef) => ({ type: 'group', id: group.id, name: group.name });

/** A user joined or left a group: the entry concerns that user's account too. */
export const memberEvent = (
  type: 'group.member_added' | 'group.member_removed',
  actor: EventActor,
  group: GroupRef,
  user: UserRef,
): DomainEvent => ({ type, actor, object: groupObject(group), subjectUserId: user.id, details: { username: user.username } });

/** One `group.member_added` / `group.member_removed` per group a user joined or left. */
export function membershipEvents(actor: EventActor, user: UserRef, before: GroupRef[], after: GroupRef[]): DomainEvent[] {
  const had = new Set(before.map((g) => g.id));
  const has = new Set(after.map((g) => g.id));
  return [
    ...after.filter((g) => !had.has(g.id)).map((g) => memberEvent('group.member_added', actor, g, user)),
    ...before.filter((g) => !has.has(g.id)).map((g) => memberEvent('group.member_removed', actor, g, user)),
  ];
}
