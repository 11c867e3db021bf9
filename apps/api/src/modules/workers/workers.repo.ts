import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '#src/db/client.js';
import { users, workerJobs, workerRegistration, workers } from '#src/db/schema/index.js';

export type WorkerRow = typeof workers.$inferSelect;
export type WorkerJobRow = typeof workerJobs.$inferSelect;

export const WORKER_NAME_UNIQUE = 'workers_name_key';

/** The `workers`, `worker_jobs` and `worker_registration` tables. */
export class WorkersRepo {
  constructor(private readonly db: Db) {}

  list(): Promise<WorkerRow[]> {
    return this.db.select().from(workers).orderBy(asc(workers.name));
  }

  async byName(name: string): Promise<WorkerRow | undefined> {
    const [row] = await this.db.select().from(workers).where(sql`lower(${workers.name}) = lower(${name})`).limit(1);
    return row;
  }

  async byTokenHash(hash: string): Promise<WorkerRow | undefined> {
    const [row] = await this.db.select().from(workers).where(eq(workers.tokenHash, hash)).limit(1);
    return row;
  }

  /** Inserts the station, or gives an existing one of that name a new token (a re-registration). */
  async upsert(name: string, tokenHash: string, ip: string): Promise<{ row: WorkerRow; created: boolean }> {
    const existing = await this.byName(name);
    if (existing) {
      const [row] = await this.db
        .update(workers)
        .set({ tokenHash, ip, lastSeenAt: new Date() })
        .where(eq(workers.id, existing.id))
        .returning();
      if (!row) throw new Error('worker update returned nothing');
      return { row, created: false };
    }
    const [row] = await this.db.insert(workers).values({ name, tokenHash, ip, lastSeenAt: new Date() }).returning();
    if (!row) throw new Error('worker insert returned nothing');
    return { row, created: true };
  }

  async heartbeat(id: number, ip: string): Promise<void> {
    await this.db.update(workers).set({ ip, lastSeenAt: new Date() }).where(eq(workers.id, id));
  }

  async delete(id: number): Promise<WorkerRow | undefined> {
    const [row] = await this.db.delete(workers).where(eq(workers.id, id)).returning();
    return row;
  }

  async registrationToken(create: () => string): Promise<string> {
    await this.db.insert(workerRegistration).values({ id: 1, token: create() }).onConflictDoNothing();
    const [row] = await this.db.select().from(workerRegistration).limit(1);
    if (!row) throw new Error('registration token missing');
    return row.token;
  }

  async currentRegistrationToken(): Promise<string | undefined> {
    const [row] = await this.db.select().from(workerRegistration).limit(1);
    return row?.token;
  }

  async insertJob(values: typeof workerJobs.$inferInsert): Promise<WorkerJobRow> {
    const [row] = await this.db.insert(workerJobs).values(values).returning();
    if (!row) throw new Error('job insert returned nothing');
    return row;
  }

  async job(id: number): Promise<{ job: WorkerJobRow; worker: string; username: string } | undefined> {
    const [row] = await this.db
      .select({ job: workerJobs, worker: workers.name, username: users.username })
      .from(workerJobs)
      .innerJoin(workers, eq(workers.id, workerJobs.workerId))
      .innerJoin(users, eq(users.id, workerJobs.userId))
      .where(eq(workerJobs.id, id))
      .limit(1);
    return row;
  }

  /** The station's job, locked for its result. */
  async jobForUpdate(workerId: number, id: number): Promise<WorkerJobRow | undefined> {
    const [row] = await this.db
      .select()
      .from(workerJobs)
      .where(and(eq(workerJobs.id, id), eq(workerJobs.workerId, workerId)))
      .for('update')
      .limit(1);
    return row;
  }

  /**
   * The station's oldest job it has not acknowledged yet. Offering writes nothing: an answer the
   * station never received leaves the job waiting, and the next poll offers it again.
   */
  async offerJob(workerId: number): Promise<WorkerJobRow | undefined> {
    const [row] = await this.db
      .select()
      .from(workerJobs)
      .where(and(eq(workerJobs.workerId, workerId), isNull(workerJobs.takenAt), eq(workerJobs.state, 'in_progress')))
      .orderBy(asc(workerJobs.id))
      .limit(1);
    return row;
  }

  /** The station acknowledged the job: from now on it is taken (and held by that station). */
  async takeJob(id: number): Promise<void> {
    await this.db
      .update(workerJobs)
      .set({ takenAt: new Date() })
      .where(and(eq(workerJobs.id, id), isNull(workerJobs.takenAt)));
  }

  /** Jobs the station acknowledged and has not finished, locked (skipping ones being finished). */
  heldJobsForUpdate(workerId: number): Promise<WorkerJobRow[]> {
    return this.db
      .select()
      .from(workerJobs)
      .where(and(eq(workerJobs.workerId, workerId), isNotNull(workerJobs.takenAt), eq(workerJobs.state, 'in_progress')))
      .for('update', { skipLocked: true });
  }

  /**
   * Jobs in progress whose station has given no sign of life (poll, job heartbeat, result) since
   * `before`, nor were they queued or acknowledged after it; locked, skipping ones being finished.
   */
  overdueJobsForUpdate(before: Date): Promise<WorkerJobRow[]> {
    return this.db
      .select({ job: workerJobs })
      .from(workerJobs)
      .innerJoin(workers, eq(workers.id, workerJobs.workerId))
      .where(
        and(
          eq(workerJobs.state, 'in_progress'),
          sql`greatest(${workerJobs.createdAt}, ${workerJobs.takenAt}, ${workers.lastSeenAt}) < ${before.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(asc(workerJobs.id))
      .limit(100)
      .for('update', { of: workerJobs, skipLocked: true })
      .then((rows) => rows.map((r) => r.job));
  }

  async finishJob(id: number, result: { state: 'error' | 'success'; error?: string; serial?: string }): Promise<void> {
    await this.db
      .update(workerJobs)
      .set({ state: result.state, error: result.error ?? null, serial: result.serial ?? null, finishedAt: new Date() })
      .where(eq(workerJobs.id, id));
  }

  async worker(id: number): Promise<WorkerRow | undefined> {
    const [row] = await this.db.select().from(workers).where(eq(workers.id, id)).limit(1);
    return row;
  }

  async user(id: number) {
    const [row] = await this.db
      .select({ id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    return row;
  }

  async userByName(username: string) {
    const [row] = await this.db
      .select({ id: users.id, username: users.username, isActive: users.isActive })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${username})`)
      .limit(1);
    return row;
  }
}
