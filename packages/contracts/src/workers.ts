import { z } from 'zod';

/**
 * YubiKey provisioning (spec §3 Provisioner, §4, §7 `/worker/*`; docs/provisioning.md, ADR-007).
 * Admin routes list stations and their availability, hand out the registration token, queue jobs
 * and read their status. Station routes (access `worker`) take `Authorization: Worker <token>`.
 */
const id = z.coerce.number().int().positive().max(2147483647);
const oneLine = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]*$/u);

/** A provisioning station. `available`: it polled within the heartbeat timeout. */
export const WorkerSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    ip: z.string().optional(),
    available: z.boolean(),
    last_seen_at: z.string().optional(),
    created_at: z.string(),
  })
  .meta({ id: 'Worker' });
export type Worker = z.infer<typeof WorkerSchema>;

export const WorkerIdParamsSchema = z.strictObject({ id });

/** `GET /worker/token`: the registration token stations start with. */
export const WorkerRegistrationTokenSchema = z.object({ token: z.string() }).meta({ id: 'WorkerRegistrationToken' });

export const WORKER_JOB_STATES = ['in_progress', 'error', 'success'] as const;

/** `POST /worker/job`: provision a YubiKey for `username` at station `worker` (its name). */
export const CreateWorkerJobBodySchema = z.strictObject({
  worker: z.string().trim().min(1).max(100),
  username: z.string().trim().min(1).max(64),
});
export type CreateWorkerJobBody = z.infer<typeof CreateWorkerJobBodySchema>;

/** `GET /worker/{id}`: a provisioning job's status (spec §4: in progress, error, success). */
export const WorkerJobSchema = z
  .object({
    id: z.number().int(),
    worker: z.string(),
    username: z.string(),
    state: z.enum(WORKER_JOB_STATES),
    /** The station's error text (state `error`). */
    error: z.string().optional(),
    /** The card's serial number (state `success`; also `error` when the API refused the card's keys). */
    serial: z.string().optional(),
    created_at: z.string(),
    finished_at: z.string().optional(),
  })
  .meta({ id: 'WorkerJob' });
export type WorkerJob = z.infer<typeof WorkerJobSchema>;

/** `POST /worker/register` (registration token): a station's name; answered with its own token. */
export const RegisterWorkerBodySchema = z.strictObject({ name: oneLine });
export const RegisteredWorkerSchema = z
  .object({ id: z.number().int(), name: z.string(), token: z.string() })
  .meta({ id: 'RegisteredWorker' });
export type RegisteredWorker = z.infer<typeof RegisteredWorkerSchema>;

/** `POST /worker/poll`: heartbeat, and wait up to `wait_seconds` for a job (204 when none came). */
export const PollWorkerBodySchema = z.strictObject({ wait_seconds: z.number().int().min(0).max(60).default(25) });
export const WorkerTaskSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    /**
     * Seconds between the job heartbeats (`POST /worker/job/{id}/heartbeat`) the station sends while
     * it works on the job; the first one acknowledges (takes) the job.
     */
    heartbeat_seconds: z.number().positive(),
  })
  .meta({ id: 'WorkerTask' });
export type WorkerTask = z.infer<typeof WorkerTaskSchema>;

/** `POST /worker/job/{id}/result`: what the station did with the card. */
export const WorkerJobResultBodySchema = z.discriminatedUnion('success', [
  z.strictObject({
    success: z.literal(true),
    serial: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[0-9A-Za-z-]+$/),
    ssh_key: z.string().trim().min(1).max(16384),
    gpg_key: z.string().trim().min(1).max(65536),
  }),
  z.strictObject({ success: z.literal(false), error: z.string().trim().min(1).max(2000) }),
]);
export type WorkerJobResultBody = z.infer<typeof WorkerJobResultBodySchema>;

/** A user's YubiKey (`GET /user/{username}/yubikey`); its keys are the auth keys with its serial. */
export const YubikeySchema = z
  .object({ id: z.number().int(), name: z.string(), serial: z.string(), created_at: z.string() })
  .meta({ id: 'Yubikey' });
export type Yubikey = z.infer<typeof YubikeySchema>;

export const YubikeyParamsSchema = z.strictObject({ username: z.string().min(1).max(64), id });
export const RenameYubikeyBodySchema = z.strictObject({ name: oneLine });
