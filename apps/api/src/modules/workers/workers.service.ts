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
const unauthenticated = () => new HttpProblem(401, 'auth.unauthenticated', 'A provisioning station token is required.');
/** How often a waiting poll looks again for a job queued through another API instance. */
const RECHECK_MS = 1000;

/** A station token: `palw_` and 43 random base64url characters (only its SHA-256 is stored). */
const newStationToken = () => `palw_${randomToken(32)}`;

export interface WorkersOptions {
  /** A station is unavailable once it has not polled for this long. */
  heartbeatTimeoutMs: number;
}

/** Provisioning stations and their jobs (docs/provisioning.md, ADR-007). */
export class WorkersService {
  readonly signal = new JobSignal();

  constructor(
    private readonly db: Db,
    private readonly options: WorkersOptions,
  ) {}

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

  /** Heartbeat, then the station's next job, waiting up to `waitSeconds` for one. */
  async poll(worker: WorkerRow, ip: string, waitSeconds: number): Promise<WorkerTask | undefined> {
    const repo = new WorkersRepo(this.db);
    const deadline = Date.now() + Math.min(waitSeconds * 1000, this.maxWaitMs);
    await repo.heartbeat(worker.id, ip);
    for (;;) {
      const job = await repo.takeJob(worker.id);
      if (job) return this.task(repo, job);
      const left = deadline - Date.now();
      if (left <= 0 || this.signal.closed) return undefined;
      await this.signal.wait(worker.id, Math.min(left, RECHECK_MS));
    }
  }

  private async task(repo: WorkersRepo, job: WorkerJobRow): Promise<WorkerTask> {
    const user = await repo.user(job.userId);
    if (!user) throw jobNotFound();
    return { id: job.id, username: user.username, first_name: user.firstName, last_name: user.lastName, email: user.email };
  }

  /**
   * `POST /worker/job/{id}/result`. Success stores the card as the user's YubiKey and its SSH and
   * GPG public keys as their authentication keys (auth-keys module), and records
   * `yubikey.provisioned` (a webhook trigger) as the admin who asked for the job. Keys the API
   * refuses turn the job into an error with the reason.
   */
  async report(worker: WorkerRow, ip: string, jobId: number, body: WorkerJobResultBody): Promise<WorkerJob> {
    await new WorkersRepo(this.db).heartbeat(worker.id, ip);
    if (body.success) {
      try {
        await this.db.transaction((tx) => this.storeSuccess(tx, worker, ip, jobId, body));
      } catch (error) {
        // A key the auth-keys module refuses (malformed, too weak, already added) fails the job.
        if (!(error instanceof HttpProblem) || !error.code.startsWith('auth_key.')) throw error;
        await this.db.transaction((tx) => this.storeFailure(tx, worker, ip, jobId, `The card's keys were refused: ${error.message}`));
      }
    } else {
      await this.db.transaction((tx) => this.storeFailure(tx, worker, ip, jobId, body.error));
    }
    return this.job(jobId);
  }

  private async lockedJob(tx: Db, worker: WorkerRow, jobId: number): Promise<WorkerJobRow> {
    const job = await new WorkersRepo(tx).jobForUpdate(worker.id, jobId);
    if (!job?.takenAt) throw jobNotFound();
    if (job.state !== 'in_progress') throw new HttpProblem(409, 'worker_job.finished', 'The job has already finished.');
    return job;
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
    const job = await this.lockedJob(tx, worker, jobId);
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

  private async storeFailure(tx: Db, worker: WorkerRow, ip: string, jobId: number, message: string): Promise<void> {
    const job = await this.lockedJob(tx, worker, jobId);
    await new WorkersRepo(tx).finishJob(job.id, { state: 'error', error: message });
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
