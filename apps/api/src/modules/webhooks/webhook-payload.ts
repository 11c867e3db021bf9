import type { User } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { isoTimestamp } from '#src/db/rows.js';
import type { EventRecord } from '#src/modules/events/events.repo.js';
import { toUser } from '#src/modules/users/users.mapper.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { WebhooksRepo } from './webhooks.repo.js';

/** The JSON body of a webhook delivery (docs/webhooks.md). */
export interface WebhookPayload {
  /** The event's id (the activity log shows the same id); `webhook-id` is `msg_<id>`. */
  id: number;
  type: string;
  timestamp: string;
  data: {
    actor: { type: string; user_id?: number; username?: string; ip?: string };
    object?: { type: string; id?: string; name?: string };
    details: Record<string, unknown>;
    /** For `user.*` events: the user as `GET /user/{username}` returns it, while the account exists. */
    user?: User;
  };
}

/** The user an event is about: its object when that is a user (by id, else by name), else its subject. */
function userRef(e: EventRecord): { id?: number; username?: string } | undefined {
  if (!e.type.startsWith('user.')) return undefined;
  if (e.object_type === 'user') {
    if (e.object_id && /^[0-9]{1,10}$/.test(e.object_id)) return { id: Number(e.object_id) };
    if (e.object_name) return { username: e.object_name };
  }
  return e.subject_user_id !== null ? { id: e.subject_user_id } : undefined;
}

function payloadOf(e: EventRecord, user: User | undefined): WebhookPayload {
  const actor: WebhookPayload['data']['actor'] = { type: e.actor_type };
  if (e.user_id !== null) actor.user_id = e.user_id;
  if (e.username !== null) actor.username = e.username;
  if (e.ip !== null) actor.ip = e.ip;
  const data: WebhookPayload['data'] = { actor, details: e.details };
  if (e.object_type !== null) {
    data.object = { type: e.object_type };
    if (e.object_id !== null) data.object.id = e.object_id;
    if (e.object_name !== null) data.object.name = e.object_name;
  }
  if (user) data.user = user;
  return { id: e.id, type: e.type, timestamp: isoTimestamp(e.occurred_at), data };
}

/**
 * The bodies of these events, built now (the payload is stored with the delivery, so a retry in
 * an hour sends what was true when the event was fanned out). Users are read in one query.
 */
export async function buildPayloads(db: Db, list: EventRecord[]): Promise<WebhookPayload[]> {
  const refs = list.map(userRef);
  const ids = [...new Set(refs.flatMap((r) => (r?.id !== undefined ? [r.id] : [])))];
  const names = [...new Set(refs.flatMap((r) => (r?.username !== undefined ? [r.username.toLowerCase()] : [])))];
  const found = new Map<string, User>();
  const rows = await new WebhooksRepo(db).usersByIdOrName(ids, names);
  for (const record of await new UsersRepo(db).withGroups(rows)) {
    const user = toUser(record);
    found.set(`id:${user.id}`, user);
    found.set(`name:${user.username.toLowerCase()}`, user);
  }
  return list.map((e, i) => {
    const ref = refs[i];
    const user =
      ref?.id !== undefined ? found.get(`id:${ref.id}`) : ref?.username ? found.get(`name:${ref.username.toLowerCase()}`) : undefined;
    return payloadOf(e, user);
  });
}
