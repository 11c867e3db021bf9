import { eq, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { queryRows } from '#src/db/rows.js';
import { activityLogStreams } from '#src/db/schema/index.js';
import type { EventCursor } from '#src/modules/events/events.repo.js';

export type StreamRow = typeof activityLogStreams.$inferSelect;
export type NewStreamRow = typeof activityLogStreams.$inferInsert;
export type StreamChange = Partial<Pick<NewStreamRow, 'kind' | 'name' | 'url' | 'username' | 'passwordEnc' | 'certificate'>>;

/** The consumer of `events` that feeds destination `id` (ADR-005). */
export const streamConsumerName = (id: number): string => `stream:${id}`;

/** Activity-log stream destinations (spec §3) and their delivery state. */
export class StreamsRepo {
  constructor(private readonly db: Db) {}

  list(): Promise<StreamRow[]> {
    return this.db.select().from(activityLogStreams).orderBy(activityLogStreams.id);
  }

  async ids(): Promise<number[]> {
    const rows = await this.db.select({ id: activityLogStreams.id }).from(activityLogStreams);
    return rows.map((r) => r.id);
  }

  async get(id: number): Promise<StreamRow | undefined> {
    const [row] = await this.db.select().from(activityLogStreams).where(eq(activityLogStreams.id, id));
    return row;
  }

  /** Locks the row for the rest of the transaction (an update and a delete of one row serialise). */
  async getForUpdate(id: number): Promise<StreamRow | undefined> {
    const [row] = await this.db.select().from(activityLogStreams).where(eq(activityLogStreams.id, id)).for('update');
    return row;
  }

  async insert(row: NewStreamRow): Promise<StreamRow> {
    const [created] = await this.db.insert(activityLogStreams).values(row).returning();
    if (!created) throw new Error('insert returned no row');
    return created;
  }

  async update(id: number, change: StreamChange): Promise<StreamRow | undefined> {
    const [row] = await this.db
      .update(activityLogStreams)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(activityLogStreams.id, id))
      .returning();
    return row;
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(activityLogStreams).where(eq(activityLogStreams.id, id)).returning({ id: activityLogStreams.id });
    return rows.length > 0;
  }

  /** The cursor of every destination's consumer, by destination id. */
  async cursors(): Promise<Map<number, EventCursor>> {
    const rows = await queryRows<{ name: string; tx: string; id: number }>(
      this.db,
      sql`select name, cursor_tx::text as tx, cursor_id::float8 as id from event_consumers where starts_with(name, 'stream:')`,
    );
    return new Map(rows.map((r) => [Number(r.name.slice('stream:'.length)), { tx: r.tx, id: r.id }]));
  }

  async cursor(id: number): Promise<EventCursor | undefined> {
    const [row] = await queryRows<{ tx: string; id: number }>(
      this.db,
      sql`select cursor_tx::text as tx, cursor_id::float8 as id from event_consumers where name = ${streamConsumerName(id)}`,
    );
    return row;
  }

  async markSuccess(id: number): Promise<void> {
    await this.db.update(activityLogStreams).set({ lastSuccessAt: sql`now()` }).where(eq(activityLogStreams.id, id));
  }

  async markError(id: number, error: string): Promise<void> {
    await this.db
      .update(activityLogStreams)
      .set({ lastErrorAt: sql`now()`, lastError: error.slice(0, 1024) })
      .where(eq(activityLogStreams.id, id));
  }
}
