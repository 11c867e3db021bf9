import { z } from 'zod';

/**
 * The only place the API reads `process.env`. A bad value stops the process with a message that
 * names the variable.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The project's release feed (docs/updates.md). */
export const DEFAULT_UPDATE_FEED_URL = 'https://updates.palisade.dev/v1/releases.json';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default('./data'),
  SECRET_KEY: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ADMIN_PASSWORD: optionalString,
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  WEB_DIST: optionalString,
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(600),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  /** gRPC port for gateways (ARCHITECTURE §5); TLS when both files are set. */
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50055),
  GRPC_TLS_CERT: optionalString,
  GRPC_TLS_KEY: optionalString,
  /** The URL gateways dial, shown with the location token; derived from PUBLIC_URL when unset. */
  GRPC_PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  STATS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** How often expired ACL rules are sent to gateways as removals (jobs/acl-expiry.ts). */
  ACL_EXPIRY_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** A provisioning station is unavailable once it has not polled for this long (docs/provisioning.md). */
  WORKER_HEARTBEAT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** A provisioning job fails once its station gave no sign of life for this long (docs/provisioning.md). */
  WORKER_JOB_DEADLINE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Connections this process keeps to PostgreSQL (ignored on the embedded database). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** How long opening a PostgreSQL connection, or waiting for a free one in the pool, may take before the query fails. */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  /** Release feed read by the update check (docs/updates.md); UPDATE_CHECK_ENABLED=false turns checks off. */
  UPDATE_FEED_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default(DEFAULT_UPDATE_FEED_URL),
  UPDATE_CHECK_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** How often the feed is read (6 h by default); at most once per interval per process. */
  UPDATE_CHECK_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(6 * 3600),
  /** Argon2 hashes and verifications at once (lib/password.ts); default: CPUs − 1, at least 1. */
  ARGON2_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  /** Where POST /mail/support sends support data and logs (docs/support.md); unset: not offered. */
  SUPPORT_EMAIL: optionalString.pipe(z.email({ error: 'must be an email address' }).optional()),
  /**
   * On SIGTERM the process first drains for this long: readiness answers 503, requests are still
   * served, so a load balancer takes it out before it closes (docs/operations.md#replicas). 0: close at once.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(5),
  /** Bearer token of GET /metrics (docs/operations.md); unset: no metrics endpoint (404). */
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, 'must be at least 16 characters').regex(/^\S+$/, 'must not contain spaces').optional(),
  ),
});
export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty value means unset (`PORT=` must not become port 0, nor `RATE_LIMIT_PER_MINUTE=`
  // turn the limiter off).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  if (result.data.ADMIN_PASSWORD !== undefined && result.data.ADMIN_PASSWORD.length < 8) {
    throw new EnvError('Invalid environment configuration:\n  ADMIN_PASSWORD: must be at least 8 characters');
  }
  if ((result.data.GRPC_TLS_CERT === undefined) !== (result.data.GRPC_TLS_KEY === undefined)) {
    throw new EnvError('Invalid environment configuration:\n  GRPC_TLS_CERT, GRPC_TLS_KEY: set both or neither');
  }
  return result.data;
}

export function loadEnv(): Env {
  return parseEnv(process.env);
}
