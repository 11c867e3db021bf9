import type { ActivityLogEntry, EventType } from '@palisade/contracts';
import { isoTimestamp } from '#src/db/rows.js';
import type { EventRecord } from '#src/modules/events/events.repo.js';

/**
 * One event as a stream destination receives it: a flat JSON object with the activity log
 * entry's field names (absent values are left out, as in `GET /activity_log`).
 */
export function toStreamRecord(e: EventRecord): ActivityLogEntry {
  return {
    id: e.id,
    timestamp: isoTimestamp(e.occurred_at),
    actor_type: e.actor_type,
    ...(e.user_id !== null ? { user_id: e.user_id } : {}),
    ...(e.username !== null ? { username: e.username } : {}),
    ...(e.ip !== null ? { ip: e.ip } : {}),
    ...(e.user_agent !== null ? { user_agent: e.user_agent } : {}),
    module: e.module as ActivityLogEntry['module'],
    event: e.type as EventType,
    ...(e.object_type !== null ? { object_type: e.object_type } : {}),
    ...(e.object_id !== null ? { object_id: e.object_id } : {}),
    ...(e.object_name !== null ? { object_name: e.object_name } : {}),
    ...(e.device_id !== null ? { device_id: e.device_id } : {}),
    ...(e.device_name !== null ? { device_name: e.device_name } : {}),
    details: e.details,
  };
}

/**
 * The request body for a batch: one JSON array on a single line. Vector's `json` decoder and
 * Logstash's `json` codec both split a top-level array into one event per element, and a single
 * line is one frame whether Vector frames by newline or takes the whole body.
 */
export const streamBody = (batch: EventRecord[]): string => JSON.stringify(batch.map(toStreamRecord));
