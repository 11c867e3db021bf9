import type { ActivityLogEntry } from '@palisade/contracts';
import { isoTimestamp } from '#src/db/rows.js';
import type { EventRecord } from '#src/modules/events/events.repo.js';

/** An `events` row as the activity log shows it (absent values are left out, not null). */
export function toEntry(row: EventRecord): ActivityLogEntry {
  const entry: ActivityLogEntry = {
    id: Number(row.id),
    timestamp: isoTimestamp(row.occurred_at),
    actor_type: row.actor_type,
    module: row.module as ActivityLogEntry['module'],
    event: row.type as ActivityLogEntry['event'],
    details: row.details ?? {},
  };
  if (row.user_id !== null) entry.user_id = row.user_id;
  if (row.username !== null) entry.username = row.username;
  if (row.ip !== null) entry.ip = row.ip;
  if (row.user_agent !== null) entry.user_agent = row.user_agent;
  if (row.object_type !== null) entry.object_type = row.object_type;
  if (row.object_id !== null) entry.object_id = row.object_id;
  if (row.object_name !== null) entry.object_name = row.object_name;
  if (row.device_id !== null) entry.device_id = row.device_id;
  if (row.device_name !== null) entry.device_name = row.device_name;
  return entry;
}
