import type { CreateWorkerJobBody, RegisteredWorker, Worker, WorkerJob, WorkerJobResultBody, WorkerTask } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { isUniqueViolation } from '#src/lib/db-errors.js';
import { HttpProblem } from '#src/lib/problem.js';
import { addUserKeys } from '#src/modules/auth-keys/auth-keys.service.js';
import {
  anonymousActor,
  type EventActor,
  type RequestOrigin,
  SYSTEM_ACTOR,
  type SignedInActor,
  userActor,
} from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { replaceYubikey } from '#src/modules/yubikeys/yubikeys.service.js';
import { JobSignal } from './job-signal.js';
import { WORKER_NAME_UNIQUE, type WorkerJobRow, type WorkerRow, WorkersRepo } from './workers.repo.js';

const workerNotFound = () => new HttpProblem(404, 'worker.not_found', 'Provisioning station not found');
const jobNotFound = () => new HttpProblem(404, 'worker_job.not_found', 'Provisioning job not found');
const jobFinished = (job: WorkerJobRow) =>
  new HttpProblem(
    409,
    'worker_job.finished',
    `The job is no longer in progress: it ended in ${job.state}${job.error ? ` (${job.error})` : ''}.`,
  );
const unauthenticated = () => new HttpProblem(401, 'auth.unauthenticated', 'A provisioning station token is required.');
/** How often a waiting poll looks again for a job queued through another API instance. */
const RECHECK_MS = 1000;

/** A station token: `palw_` and 43 random base64url characters (only its SHA-256 is stored). */
const newStationToken = () => `palw_${randomToken(32)}`;

/** The reason of a job the deadline ended (docs/provisioning.md, job lifecycle). */
export const STATION_STOPPED_ANSWERING = 'The provisioning station stopped answering.';
/** The reason of an acknowledged job whose station polls again (it restarted without finishing it). */
export const STATION_LOST_JOB = 'The provisioning station restarted before it finished the job.';

export interface WorkersOptions {
  /** A station is unavailable once it has not polled (or sent a job heartbeat) for this long. */
  heartbeatTimeoutMs: number;
  /** A job in progress fails once its station gave no sign of life for this long (WORKER_JOB_DEADLINE_SECONDS). */
  jobDeadlineMs: number;
}

/** Provisioning stations and their jobs (docs/provisioning.md, ADR-007). */
export class WorkersService {
  readonly signal = new JobSignal();

  constructor(
    private readonly db: Db,
    private readonly options: WorkersOptions,
  ) {}

  /**
   * How often a station running a job says so: a quarter of the shorter of the heartbeat timeout
   * and the job deadline, so neither runs out between two heartbeats.
   */
  get jobHeartbeatSeconds(): number {
    const ms = Math.min(this.options.heartbeatTimeoutMs, this.options.jobDeadlineMs) / 4;
    return Math.min(30, Math.max(0.25, Math.round(ms / 250) / 4));
  }

  /** The longest a poll waits: well inside the heartbeat timeout, so a waiting station stays available. */
  get maxWaitMs(): number {
    return Math.max(0, Math.floor(this.options.heartbeatTimeoutMs / 2));
  }

  private toWorker(row: WorkerRow, now = Date.now()): Worker {
    const seen = row.lastSeenAt?.getTime();
    return {
      id: row.id,
      name: row.name,
      ...(row.ip ? { ip: row.ip } : {}),
      available: seen !== undefined && now - seen <= this.options.heartbeatTimeoutMs,
      ...(row.lastSeenAt ? { last_seen_at: row.lastSeenAt.toISOString() } : {}),
      created_at: row.createdAt.toISOString(),
    };
  }

  async list(): Promise<Worker[]> {
    const now = Date.now();
    return (await new WorkersRepo(this.db).list()).map((row) => this.toWorker(row, now));
  }

  registrationToken(): Promise<string> {
    return new WorkersRepo(this.db).registrationToken(() => `palr_${randomToken(32)}`);
  }

  async createJob(actor: SignedInActor, body: CreateWorkerJobBody): Promise<{ id: number }> {
    const job = await this.db.transaction(async (tx) => {
      const repo = new WorkersRepo(tx);
      const worker = await repo.byName(body.worker);
      if (!worker) throw workerNotFound();
      if (!this.toWorker(worker).available) {
        throw new HttpProblem(409, 'worker.unavailable', 'The provisioning station is unavailable.');
      }
      const user = await repo.userByName(body.username);
      if (!user) throw new HttpProblem(404, 'user.not_found', 'User not found');
      const row = await repo.insertJob({ workerId: worker.id, userId: user.id, requestedById: actor.userId, requestedBy: actor.username });
      await recordEvent(tx, {
        type: 'worker.job_created',
        actor: userActor(actor),
        object: { type: 'worker', id: worker.id, name: worker.name },
        subjectUserId: user.id,
        details: { job_id: row.id, username: user.username, worker: worker.name },
      });
      return row;
    });
    this.signal.notify(job.workerId);
    return { id: job.id };
  }

  async job(id: number): Promise<WorkerJob> {
    const found = await new WorkersRepo(this.db).job(id);
    if (!found) throw jobNotFound();
    const { job, worker, username } = found;
    return {
      id: job.id,
      worker,
      username,
      state: job.state,
      ...(job.error ? { error: job.error } : {}),
      ...(job.serial ? { serial: job.serial } : {}),
      created_at: job.createdAt.toISOString(),
      ...(job.finishedAt ? { finished_at: job.finishedAt.toISOString() } : {}),
    };
  }

  async delete(actor: SignedInActor, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await new WorkersRepo(tx).delete(id);
      if (!row) throw workerNotFound();
      await recordEvent(tx, {
        type: 'worker.deleted',
        actor: userActor(actor),
        object: { type: 'worker', id: row.id, name: row.name },
        details: { name: row.name },
      });
    });
  }

  /** `POST /worker/register`: the registration token buys the station a token of its own. */
  async register(registrationToken: string, name: string, origin: RequestOrigin): Promise<RegisteredWorker> {
    const current = await new WorkersRepo(this.db).currentRegistrationToken();
    if (current === undefined || sha256(current) !== sha256(registrationToken)) throw unauthenticated();
    const token = newStationToken();
    try {
      return await this.db.transaction(async (tx) => {
        const { row, created } = await new WorkersRepo(tx).upsert(name, sha256(token), origin.ip ?? '');
        await recordEvent(tx, {
          type: 'worker.registered',
          actor: anonymousActor(origin),
          object: { type: 'worker', id: row.id, name: row.name },
          details: { name: row.name, re_registered: !created },
        });
        return { id: row.id, name: row.name, token };
      });
    } catch (error) {
      // Two stations registering the same new name at once: the second asks again.
      if (isUniqueViolation(error, WORKER_NAME_UNIQUE)) throw new HttpProblem(409, 'worker.name_taken', 'Try again.');
      throw error;
    }
  }

  /** The station a token belongs to, or undefined. */
  authenticate(token: string): Promise<WorkerRow | undefined> {
    return new WorkersRepo(this.db).byTokenHash(sha256(token));
  }

  /**
   * Heartbeat, then the station's next job, waiting up to `waitSeconds` for one. The job is only
   * offered: it is taken when the station acknowledges it (`heartbeat`), so an answer the station
   * never received (it gave up on the request, a proxy cut it) strands nothing; the next poll offers
   * it again. A station polls only when it holds no job, so jobs it acknowledged and did not finish
   * are lost (it restarted): they fail at once. `abort` ends the wait when the client went away.
   */
  async poll(worker: WorkerRow, ip: string, waitSeconds: number, abort?: AbortSignal): Promise<WorkerTask | undefined> {
    const repo = new WorkersRepo(this.db);
    const deadline = Date.now() + Math.min(waitSeconds * 1000, this.maxWaitMs);
    await repo.heartbeat(worker.id, ip);
    if (abort?.aborted) return undefined;
    await this.db.transaction(async (tx) => {
      for (const job of await new WorkersRepo(tx).heldJobsForUpdate(worker.id)) await this.failJob(tx, job, STATION_LOST_JOB, worker);
    });
    for (;;) {
      if (abort?.aborted) return undefined;
      const job = await repo.offerJob(worker.id);
      if (job) return this.task(repo, job);
      const left = deadline - Date.now();
      if (left <= 0 || this.signal.closed) return undefined;
      await this.signal.wait(worker.id, Math.min(left, RECHECK_MS), abort);
    }
  }

  private async task(repo: WorkersRepo, job: WorkerJobRow): Promise<WorkerTask> {
    const user = await repo.user(job.userId);
    if (!user) throw jobNotFound();
    return {
      id: job.id,
      username: user.username,
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      heartbeat_seconds: this.jobHeartbeatSeconds,
    };
  }

  /**
   * `POST /worker/job/{id}/heartbeat`: the station has the job and works on it. The first one
   * acknowledges (takes) the job; each stamps the station's heartbeat, which keeps the job from its
   * deadline and the station available. A job that is no longer in progress answers 409.
   */
  async jobHeartbeat(worker: WorkerRow, ip: string, jobId: number): Promise<void> {
    const repo = new WorkersRepo(this.db);
    await repo.heartbeat(worker.id, ip);
    await this.db.transaction(async (tx) => {
      const job = await new WorkersRepo(tx).jobForUpdate(worker.id, jobId);
      if (!job) throw jobNotFound();
      if (job.state !== 'in_progress') throw jobFinished(job);
      if (!job.takenAt) await new WorkersRepo(tx).takeJob(job.id);
    });
  }

  /**
   * The deadline (jobs/worker-job-deadline): every job in progress whose station gave no sign of
   * life for `jobDeadlineMs` fails with STATION_STOPPED_ANSWERING, recorded as
   * `yubikey.provisioning_failed` like any failure. Answers the ids it failed.
   */
  async expireOverdueJobs(now = Date.now()): Promise<number[]> {
    return this.db.transaction(async (tx) => {
      const repo = new WorkersRepo(tx);
      const overdue = await repo.overdueJobsForUpdate(new Date(now - this.options.jobDeadlineMs));
      for (const job of overdue) await this.failJob(tx, job, STATION_STOPPED_ANSWERING);
      return overdue.map((j) => j.id);
    });
  }

  /** Ends a job in error with `reason` as the system (not the station's result). */
  private async failJob(tx: Db, job: WorkerJobRow, reason: string, station?: WorkerRow): Promise<void> {
    const repo = new WorkersRepo(tx);
    const worker = station ?? (await repo.worker(job.workerId));
    await repo.finishJob(job.id, { state: 'error', error: reason });
    const user = await repo.user(job.userId);
    await recordEvent(tx, {
      type: 'yubikey.provisioning_failed',
      actor: SYSTEM_ACTOR,
      object: { type: 'worker', id: job.workerId, name: worker?.name ?? '' },
      subjectUserId: job.userId,
      details: { username: user?.username, worker: worker?.name, job_id: job.id, error: reason },
    });
  }

  /**
   * `POST /worker/job/{id}/result`. Success stores the card as the user's YubiKey and its SSH and
   * GPG public keys as their authentication keys (auth-keys module), and records
   * `yubikey.provisioned` (a webhook trigger) as the admin who asked for the job. Keys the API
   * refuses turn the job into an error with the reason.
   */
  async report(worker: WorkerRow, ip: string, jobId: number, body: WorkerJobResultBody): Promise<WorkerJob> {
    await new WorkersRepo(this.db).heartbeat(worker.id, ip);
    // A repeated report (the answer to the first one was lost) of a finished job changes nothing.
    const current = await new WorkersRepo(this.db).job(jobId);
    if (current && current.job.workerId === worker.id && current.job.state !== 'in_progress' && sameResult(current.job, body)) {
      return this.job(jobId);
    }
    if (body.success) {
      try {
        await this.db.transaction((tx) => this.storeSuccess(tx, worker, ip, jobId, body));
      } catch (error) {
        // A key the auth-keys module refuses (malformed, too weak, already added) fails the job.
        if (!(error instanceof HttpProblem) || !error.code.startsWith('auth_key.')) throw error;
        const reason = `The card's keys were refused: ${error.message}`;
        await this.db.transaction((tx) => this.storeFailure(tx, worker, ip, jobId, reason, body));
      }
    } else {
      await this.db.transaction((tx) => this.storeFailure(tx, worker, ip, jobId, body.error, body));
    }
    return this.job(jobId);
  }

  /** The station's job, locked; undefined when it already finished with this very result (a repeat). */
  private async lockedJob(tx: Db, worker: WorkerRow, jobId: number, body: WorkerJobResultBody): Promise<WorkerJobRow | undefined> {
    const job = await new WorkersRepo(tx).jobForUpdate(worker.id, jobId);
    if (!job) throw jobNotFound();
    if (job.state === 'in_progress') return job;
    if (sameResult(job, body)) return undefined;
    throw jobFinished(job);
  }

  private requester(job: WorkerJobRow, ip: string): EventActor {
    if (job.requestedById === null) return SYSTEM_ACTOR;
    return { type: 'user', userId: job.requestedById, username: job.requestedBy, ip };
  }

  private async storeSuccess(
    tx: Db,
    worker: WorkerRow,
    ip: string,
    jobId: number,
    body: Extract<WorkerJobResultBody, { success: true }>,
  ): Promise<void> {
    const job = await this.lockedJob(tx, worker, jobId, body);
    if (!job) return;
    const repo = new WorkersRepo(tx);
    const user = await repo.user(job.userId);
    if (!user) throw jobNotFound();
    const actor = this.requester(job, ip);
    const yubikey = await replaceYubikey(tx, actor, user, body.serial);
    const keys = await addUserKeys(
      tx,
      actor,
      user,
      [
        { name: `YubiKey ${body.serial} SSH`, key_type: 'ssh', key: body.ssh_key },
        { name: `YubiKey ${body.serial} GPG`, key_type: 'gpg', key: body.gpg_key },
      ],
      body.serial,
    );
    await repo.finishJob(job.id, { state: 'success', serial: body.serial });
    await recordEvent(tx, {
      type: 'yubikey.provisioned',
      actor,
      object: { type: 'yubikey', id: yubikey.id, name: yubikey.name },
      subjectUserId: user.id,
      details: {
        username: user.username,
        serial: body.serial,
        worker: worker.name,
        job_id: job.id,
        fingerprints: keys.map((k) => ({ key_type: k.key_type, fingerprint: k.fingerprint })),
      },
    });
  }

  /** The job ends in error with `message`: the station's text, or why its keys were refused (`body` is its report). */
  private async storeFailure(
    tx: Db,
    worker: WorkerRow,
    ip: string,
    jobId: number,
    message: string,
    body: WorkerJobResultBody,
  ): Promise<void> {
    const job = await this.lockedJob(tx, worker, jobId, body);
    if (!job) return;
    // Keys refused: the serial stays on the job, so a repeat of the same report is recognised.
    await new WorkersRepo(tx).finishJob(job.id, { state: 'error', error: message, ...(body.success ? { serial: body.serial } : {}) });
    const user = await new WorkersRepo(tx).user(job.userId);
    await recordEvent(tx, {
      type: 'yubikey.provisioning_failed',
      actor: this.requester(job, ip),
      object: { type: 'worker', id: worker.id, name: worker.name },
      subjectUserId: job.userId,
      details: { username: user?.username, worker: worker.name, job_id: job.id, error: message },
    });
  }
}

/**
 * Whether a finished job ended with this result: the same card serial (a success, or keys the API
 * refused), or the same error text. A station repeats a report whose answer it did not get.
 */
function sameResult(job: WorkerJobRow, body: WorkerJobResultBody): boolean {
  if (body.success) return job.serial !== null && job.serial === body.serial;
  return job.state === 'error' && job.serial === null && job.error === body.error;
}
