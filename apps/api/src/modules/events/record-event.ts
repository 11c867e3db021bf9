import { type EventType, moduleOfEvent } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import type { EventActor } from './event-actor.js';
import { EventsRepo, type NewEventRow } from './events.repo.js';
import { redactDetails } from './redact.js';

/** What a service says happened (ADR-005). Secrets in `details` are redacted on the way in. */
export interface DomainEvent {
  type: EventType;
  actor: EventActor;
  /** The object acted on: a user, group, location, device, gateway, webhook… */
  object?: { type: string; id?: string | number | undefined; name?: string | undefined } | undefined;
  device?: { id: number; name: string } | undefined;
  /** The account the event concerns, when it is not the actor's own (shown to that user too). */
  subjectUserId?: number | undefined;
  details?: Record<string, unknown> | undefined;
}

export function toEventRow(event: DomainEvent): NewEventRow {
  const a = event.actor;
  return {
    actorType: a.type,
    userId: a.type === 'user' ? a.userId : null,
    username: a.type === 'user' ? a.username : a.type === 'gateway' ? a.name : null,
    ip: a.type === 'system' ? null : (a.ip ?? null),
    userAgent: a.type === 'user' || a.type === 'anonymous' ? (a.userAgent ?? null) : null,
    module: moduleOfEvent(event.type),
    type: event.type,
    objectType: event.object?.type ?? null,
    objectId: event.object?.id === undefined ? null : String(event.object.id),
    objectName: event.object?.name ?? null,
    deviceId: event.device?.id ?? null,
    deviceName: event.device?.name ?? null,
    subjectUserId: event.subjectUserId ?? null,
    details: (redactDetails(event.details ?? {}) ?? {}) as Record<string, unknown>,
  };
}

/**
 * Records events. Call it with the transaction handle of the change itself: the events commit
 * with the change or not at all, and consumers deliver them after the commit.
 */
export async function recordEvent(tx: Db, ...list: DomainEvent[]): Promise<void> {
  await new EventsRepo(tx).insert(list.map(toEventRow));
}

/** Runs `change` and records the events it returns in one transaction. */
export async function withEvents<T>(db: Db, change: (tx: Db) => Promise<{ result: T; events: DomainEvent[] }>): Promise<T> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const { result, events } = await change(tx);
    await recordEvent(tx, ...events);
    return result;
  });
}
