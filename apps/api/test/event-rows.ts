import { sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';

/** An `events` row as the route tests check it (nulls kept, so a missing IP or device shows). */
export interface EventRow {
  id: number;
  actor_type: string;
  user_id: number | null;
  username: string | null;
  ip: string | null;
  user_agent: string | null;
  module: string;
  type: string;
  object_type: string | null;
  object_id: string | null;
  object_name: string | null;
  device_id: number | null;
  device_name: string | null;
  subject_user_id: number | null;
  details: Record<string, unknown>;
}

/** The id of the newest event (0 when none): take it before a request, then read `eventsAfter`. */
export async function lastEventId(db: Db): Promise<number> {
  const [row] = await queryRows<{ id: number }>(db, sql`select coalesce(max(id), 0)::int as id from events`);
  return row?.id ?? 0;
}

/** The events recorded after `id`, oldest first. */
export function eventsAfter(db: Db, id: number): Promise<EventRow[]> {
  return queryRows<EventRow>(
    db,
    sql`select id::int as id, actor_type, user_id, username, ip, user_agent, module, type, object_type, object_id, object_name,
               device_id, device_name, subject_user_id, details
          from events where id > ${id} order by id`,
  );
}
