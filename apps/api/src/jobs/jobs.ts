import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { ldapSyncJob } from '#src/modules/ldap/sync.job.js';
import { directorySyncJob } from '#src/modules/directory-sync/directory-sync.job.js';
import type { DirectoryEndpoints } from '#src/modules/directory-sync/providers/create-directory-client.js';
import type { EventSignal } from '#src/modules/events/event-signal.js';
import {
  type GatewayNotificationsJobOptions,
  gatewayNotificationsJob,
} from '#src/modules/gateway-notifications/gateway-notifications.job.js';
import { mailJob } from '#src/modules/mail/mail.job.js';
import { vpnSessionsJob } from '#src/modules/vpn-sessions/vpn-sessions.job.js';
import { workerJobDeadlineJob } from '#src/modules/workers/job-deadline.job.js';
import type { Services } from '#src/services.js';
import type { UpdateChecker } from '#src/modules/updates/update-checker.js';
import { updateCheckJob } from '#src/modules/updates/updates.job.js';
import { aclExpiryJob } from './acl-expiry.js';
import { activityLogPurgeJob } from './activity-log-purge.js';
import { authFailuresPurgeJob } from './auth-failures-purge.js';
import { oidcPurgeJob } from './oidc-purge.js';
import { streamDeliveryJob } from './stream-delivery.js';
import { webhooksJob } from './webhook-delivery.js';

/**
 * Background work of one API process (ARCHITECTURE §3/§6): event consumers (webhook fan-out and
 * delivery, activity-log streams) and periodic purges. Every replica runs them; leases and row
 * locks in PostgreSQL keep two replicas from doing the same piece of work.
 */
export interface Job {
  readonly name: string;
  /**
   * Jobs report each round or batch of work (never an idle wait) here, in seconds; `part` names
   * one loop of a job with several (`webhook-fanout`), else the job's name is the label.
   * JobRunner points it at /metrics.
   */
  onRound?: ((seconds: number, part?: string) => void) | undefined;
  start(): void;
  stop(): Promise<void>;
}

export interface JobContext {
  database: DatabaseHandle;
  services: Services;
  secrets: SecretBox;
  signal: EventSignal;
  log: FastifyBaseLogger;
  /** Unique per process: the owner name of consumer leases. */
  owner: string;
  /** ACL_EXPIRY_INTERVAL_MS (acl-expiry.ts); its default when unset. */
  aclExpiryIntervalMs?: number;
  /** Directory sync: how often the job looks whether a run is due, and (tests only) where the directory APIs live. */
  directorySync?: { tickMs?: number; endpoints?: DirectoryEndpoints } | undefined;
  /** WORKER_JOB_DEADLINE_SECONDS in ms (modules/workers/job-deadline.job.ts); its default when unset. */
  workerJobDeadlineMs?: number;
  /** PUBLIC_URL: the base of console links in mails. */
  publicUrl?: string | undefined;
  /** Gateway notifications: tests shorten the threshold unit and the interval. */
  gatewayNotifications?: GatewayNotificationsJobOptions | undefined;
  /** The release feed check (modules/updates) and UPDATE_CHECK_INTERVAL_SECONDS in ms; no job without a checker. */
  updates?: UpdateChecker;
  updateCheckIntervalMs?: number;
  /** Job round durations and logged failures for /metrics (modules/metrics); none when absent. */
  metrics?: JobMetrics | undefined;
}

export interface JobMetrics {
  observeJobRound(job: string, seconds: number): void;
  countJobError(job: string): void;
}

export type JobFactory = (ctx: JobContext) => Job;

/** Every job; each capability adds its factory here. */
export const JOB_FACTORIES: JobFactory[] = [
  webhooksJob,
  streamDeliveryJob,
  activityLogPurgeJob,
  authFailuresPurgeJob,
  mailJob,
  vpnSessionsJob,
  oidcPurgeJob,
  aclExpiryJob,
  ldapSyncJob,
  directorySyncJob,
  workerJobDeadlineJob,
  gatewayNotificationsJob,
  updateCheckJob,
];

function countingLogger(log: FastifyBaseLogger, onFailure: () => void): FastifyBaseLogger {
  return new Proxy(log, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if ((prop === 'warn' || prop === 'error' || prop === 'fatal') && typeof value === 'function') {
        return (...args: unknown[]) => {
          onFailure();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export class JobRunner {
  readonly #jobs: Job[];

  constructor(ctx: JobContext, factories: JobFactory[] = JOB_FACTORIES) {
    const metrics = ctx.metrics;
    this.#jobs = factories.map((make) => {
      if (!metrics) return make(ctx);
      // Each job gets a logger that counts its warnings and errors (failed rounds, deliveries, steps).
      const named = { job: 'unknown' };
      const job = make({ ...ctx, log: countingLogger(ctx.log, () => metrics.countJobError(named.job)) });
      named.job = job.name;
      job.onRound = (seconds, part) => metrics.observeJobRound(part ?? job.name, seconds);
      return job;
    });
  }

  start(): void {
    for (const job of this.#jobs) job.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.#jobs.map((job) => job.stop()));
  }
}
