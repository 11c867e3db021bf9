import { sql } from 'drizzle-orm';
import type { TestApp } from './helpers.js';

/** An `events` row as the identity-event tests read it. */
export interface RecordedEvent {
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
  subject_user_id: number | null;
  details: Record<string, unknown>;
}

/** Reads the events recorded after the last call (the first call returns every event so far). */
export function eventTail(t: TestApp): () => Promise<RecordedEvent[]> {
  let last = 0;
  return async () => {
    const result = await t.database.db.execute(
      sql`select id::int as id, actor_type, user_id, username, ip, user_agent, module, type, object_type, object_id, object_name,
            subject_user_id, details from events where id > ${last} order by id`,
    );
    const rows = (result as unknown as { rows: RecordedEvent[] }).rows;
    last = rows.at(-1)?.id ?? last;
    return rows;
  };
}
