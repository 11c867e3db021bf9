import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
  type RouteOptions,
} from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from '#src/db/client.js';
import type { Env } from '#src/env.js';
import { GatewayControl } from '#src/gateway-control/gateway-control.js';
import { JobRunner } from '#src/jobs/jobs.js';
import type { GatewayNotificationsJobOptions } from '#src/modules/gateway-notifications/gateway-notifications.job.js';
import { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { LogRing, teeToRing } from '#src/lib/log-ring.js';
import { createResponseSerializerCompiler } from '#src/lib/response-serializer.js';
import { activityLogRoutes } from '#src/modules/activity-log/activity-log.routes.js';
import { aclCheckRoutes } from '#src/modules/acl/check.routes.js';
import { aclRoutes } from '#src/modules/acl/acl.routes.js';
import { activityLogStreamsRoutes } from '#src/modules/activity-log-streams/streams.routes.js';
import { StreamsService } from '#src/modules/activity-log-streams/streams.service.js';
import { authRoutes } from '#src/modules/auth/auth.routes.js';
import { ldapRoutes } from '#src/modules/ldap/ldap.routes.js';
import { devicesRoutes } from '#src/modules/devices/devices.routes.js';
import { enrollmentRoutes } from '#src/modules/enrollment/enrollment.routes.js';
import { passwordResetRoutes } from '#src/modules/enrollment/password-reset.routes.js';
import { enrollmentClientRoutes } from '#src/modules/enrollment/client-routes.js';
import { directorySyncRoutes } from '#src/modules/directory-sync/directory-sync.routes.js';
import { ldapSyncRoutes } from '#src/modules/ldap/sync.routes.js';
import { LdapSyncService } from '#src/modules/ldap/sync.service.js';
import { DirectorySyncService } from '#src/modules/directory-sync/directory-sync.service.js';
import type { DirectoryEndpoints } from '#src/modules/directory-sync/providers/create-directory-client.js';
import { EventSignal } from '#src/modules/events/event-signal.js';
import { gatewaysRoutes } from '#src/modules/gateways/gateways.routes.js';
import { networkDevicesRoutes } from '#src/modules/devices/network-devices.routes.js';
import { groupsRoutes } from '#src/modules/groups/groups.routes.js';
import { HealthRepo } from '#src/modules/health/health.repo.js';
import { drainPlugin } from '#src/modules/health/drain.js';
import { healthRoutes } from '#src/modules/health/health.routes.js';
import { ApiMetrics } from '#src/modules/metrics/api-metrics.js';
import { metricsPlugin } from '#src/plugins/metrics.js';
import { networksRoutes } from '#src/modules/networks/networks.routes.js';
import { mailRoutes } from '#src/modules/mail/mail.routes.js';
import { settingsRoutes } from '#src/modules/settings/settings.routes.js';
import { statsRoutes } from '#src/modules/stats/stats.routes.js';
import { supportRoutes } from '#src/modules/support/support.routes.js';
import { usersRoutes } from '#src/modules/users/users.routes.js';
import { webhooksRoutes } from '#src/modules/webhooks/webhooks.routes.js';
import { oauthClientsRoutes } from '#src/modules/oauth-clients/oauth-clients.routes.js';
import { authKeysRoutes } from '#src/modules/auth-keys/auth-keys.routes.js';
import { authorizedAppsRoutes } from '#src/modules/authorized-apps/authorized-apps.routes.js';
import { apiTokensRoutes } from '#src/modules/api-tokens/api-tokens.routes.js';
import { workersRoutes } from '#src/modules/workers/workers.routes.js';
import { externalIdpRoutes } from '#src/modules/external-idp/external-idp.routes.js';
import { WorkersService } from '#src/modules/workers/workers.service.js';
import { yubikeysRoutes } from '#src/modules/yubikeys/yubikeys.routes.js';
import { accessPlugin } from '#src/plugins/access.js';
import { csrfPlugin } from '#src/plugins/csrf.js';
import { errorHandlerPlugin, sendFrameworkError } from '#src/plugins/error-handler.js';
import { inputGuardPlugin } from '#src/plugins/input-guard.js';
import { openapiPlugin, registerOpenapiRoute } from '#src/plugins/openapi.js';
import { securityHeadersPlugin } from '#src/plugins/security-headers.js';
import { sessionPlugin } from '#src/plugins/session.js';
import { staticWebPlugin } from '#src/plugins/static-web.js';
import { MfaCore } from '#src/modules/mfa/mfa.core.js';
import { webauthnRoutes } from '#src/modules/mfa/webauthn/webauthn.routes.js';
import { emailCodeRoutes } from '#src/modules/mfa/email/email-code.routes.js';
import { mfaRoutes } from '#src/modules/mfa/mfa.routes.js';
import { vpnSessionsRoutes } from '#src/modules/vpn-sessions/vpn-sessions.routes.js';
import { licenceRoutes } from '#src/modules/licence/licence.routes.js';
import { type LicenceOptions, LicenceService } from '#src/modules/licence/licence.service.js';
import { UpdateChecker } from '#src/modules/updates/update-checker.js';
import { updatesRoutes } from '#src/modules/updates/updates.routes.js';
import { APP_VERSION } from '#src/lib/route-schemas.js';
import { createServices, type Services } from '#src/services.js';
import { OidcHost } from '#src/oidc/host.js';
import { oidcMountPlugin } from '#src/oidc/mount.js';
import { deleteClientArtifacts } from '#src/oidc/provider.repo.js';
import { openidInteractionRoutes } from '#src/oidc/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** The gateways' gRPC server; set when buildApp was given `grpc`. */
    gatewayControl: GatewayControl | undefined;
    /** Wakes event consumers and the live activity feed when events commit. */
    eventSignal: EventSignal;
    /** Background jobs; set when buildApp was given `jobs: true`. */
    jobs: JobRunner | undefined;
    /** The MFA core: pending sign-in step, enabled methods, recovery codes (modules/mfa/mfa.core.ts). */
    mfa: MfaCore;
    /** The licence and the enterprise gate (modules/licence, docs/licensing.md). */
    licence: LicenceService;
    /** The release feed check behind `GET /updates` (modules/updates). */
    updates: UpdateChecker;
    /** Prometheus metrics of this app (its own registry), served at `GET /metrics` (plugins/metrics.ts). */
    metrics: ApiMetrics;
  }
}

export const BODY_LIMIT = 256 * 1024;

/** Log redaction: nothing secret reaches the logs, whatever a later change logs. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.token',
  '*.secret',
  '*.passwordHash',
];

/** One access-log line per request, written when it completes, instead of Fastify's two. */
class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export interface BuildAppOptions {
  env: Env;
  database: DatabaseHandle;
  webDist?: string | undefined;
  /** Key material for secrets at rest; main.ts passes SECRET_KEY or the DATA_DIR key file. */
  secretKey?: string;
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (stdout when absent); tests capture logs with it. */
  logStream?: { write(msg: string): void } | undefined;
  /** Called for every route as it is registered (the route-walking authorization test lists them). */
  onRoute?: ((route: RouteOptions) => void) | undefined;
  /**
   * Serve the gateways' gRPC endpoint (started when the app is ready, stopped when it closes).
   * main.ts passes `GRPC_PORT`; tests pass port 0 and read `app.gatewayControl.port`.
   */
  grpc?: { port: number; host?: string } | undefined;
  /**
   * Also encode every response with zod and require the compiled serializer's output to equal
   * it (lib/response-serializer.ts). On unless false: main.ts turns it off in production.
   */
  checkResponses?: boolean | undefined;
  /**
   * Run the background jobs (event consumers: webhooks, activity-log streams; purges) while the
   * app is up. main.ts turns them on; integration tests that need them pass true.
   */
  jobs?: boolean | undefined;
  /**
   * Directory sync: the job's tick (how often it looks whether a run is due) and, for tests only,
   * where the directory APIs live (test/support/fake-directories). main.ts passes neither.
   */
  directorySync?: { tickMs?: number; endpoints?: DirectoryEndpoints } | undefined;
  /** Gateway notifications: tests only, a shorter threshold unit and check interval. main.ts passes none. */
  gatewayNotifications?: GatewayNotificationsJobOptions | undefined;
  /**
   * Tests only: the keys that sign valid licences and the free limits (docs/licensing.md). main.ts
   * passes nothing (the built-in production key and free limits); no environment variable sets it.
   */
  licence?: LicenceOptions | undefined;
  /**
   * Benchmarks only (bench/metrics.ts): false builds the app without request metrics (no hook, no
   * `/metrics`) to measure what they cost. main.ts and tests leave it on.
   */
  requestMetrics?: boolean | undefined;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  // The support page's log download (GET /support/logs): every line also goes to this ring.
  const logRing = new LogRing();
  const app = Fastify({
    logger: options.logger ?? {
      level: env.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      stream: teeToRing(options.logStream ?? process.stdout, logRing),
    },
    bodyLimit: BODY_LIMIT,
    trustProxy: env.TRUST_PROXY,
    requestIdHeader: false,
    logController: new AccessLogController(),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { maxParamLength: 256 },
    // Router errors (bad URL encoding, over-long params) bypass the error handler: problem+json too.
    frameworkErrors: sendFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // API.md: JSON bodies only. Fastify parses text/plain by default; that must be a 415 instead.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializerCompiler({ check: options.checkResponses ?? true }));
  const secrets = SecretBox.fromSecret(options.secretKey ?? env.SECRET_KEY ?? randomUUID());
  app.decorate(
    'services',
    createServices(database.db, {
      sessionTtlMs: env.SESSION_TTL_HOURS * 3600_000,
      secrets,
      publicUrl: env.PUBLIC_URL,
      grpc: {
        publicGrpcUrl: env.GRPC_PUBLIC_URL,
        publicUrl: env.PUBLIC_URL,
        grpcPort: env.GRPC_PORT,
        tls: env.GRPC_TLS_CERT !== undefined,
      },
    }),
  );
  const grpc = options.grpc;
  const gatewayControl = grpc
    ? new GatewayControl({
        database,
        secrets,
        log: app.log,
        port: grpc.port,
        host: grpc.host ?? env.HOST,
        tls: env.GRPC_TLS_CERT && env.GRPC_TLS_KEY ? { certFile: env.GRPC_TLS_CERT, keyFile: env.GRPC_TLS_KEY } : undefined,
        statsRetentionDays: env.STATS_RETENTION_DAYS,
      })
    : undefined;
  app.decorate('gatewayControl', gatewayControl);
  const metrics = new ApiMetrics({ database, gatewayControl });
  app.decorate('metrics', metrics);
  app.services.auth.onLogin = (outcome) => metrics.countLogin(outcome);
  if (gatewayControl) {
    app.addHook('onReady', () => gatewayControl.start());
    app.addHook('preClose', () => gatewayControl.stop());
  }
  const eventSignal = new EventSignal(database);
  app.decorate('eventSignal', eventSignal);
  const licence = new LicenceService(database.db, options.licence, () => eventSignal.generation);
  app.decorate('licence', licence);
  app.addHook('onReady', () => eventSignal.start());
  app.addHook('preClose', () => eventSignal.stop());
  const updates = new UpdateChecker({
    enabled: env.UPDATE_CHECK_ENABLED,
    feedUrl: env.UPDATE_FEED_URL,
    currentVersion: APP_VERSION,
    egressPolicy: async () => ({ allowCidrs: (await app.services.settings.get()).egress_allow_cidrs }),
    log: app.log,
  });
  app.decorate('updates', updates);
  const jobs = options.jobs
    ? new JobRunner({
        database,
        services: app.services,
        secrets,
        signal: eventSignal,
        log: app.log,
        owner: `${process.pid}-${randomUUID()}`,
        aclExpiryIntervalMs: env.ACL_EXPIRY_INTERVAL_MS,
        directorySync: options.directorySync,
        workerJobDeadlineMs: env.WORKER_JOB_DEADLINE_SECONDS * 1000,
        publicUrl: env.PUBLIC_URL,
        gatewayNotifications: options.gatewayNotifications,
        updates,
        updateCheckIntervalMs: env.UPDATE_CHECK_INTERVAL_SECONDS * 1000,
        metrics,
      })
    : undefined;
  app.decorate('jobs', jobs);
  if (jobs) {
    app.addHook('onReady', async () => jobs.start());
    app.addHook('preClose', () => jobs.stop());
  }
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(errorHandlerPlugin);
  await app.register(drainPlugin);
  if (options.requestMetrics !== false) await app.register(metricsPlugin, { metrics, token: env.METRICS_TOKEN });
  await app.register(securityHeadersPlugin);
  await app.register(cookie);
  if (env.RATE_LIMIT_PER_MINUTE > 0) {
    await app.register(rateLimit, {
      max: env.RATE_LIMIT_PER_MINUTE,
      timeWindow: '1 minute',
      // The console's static files are not limited: one page load fetches many chunks.
      allowList: (req) => !req.url.startsWith('/api/'),
      errorResponseBuilder: (_req, ctx) =>
        Object.assign(new HttpProblem(429, 'request.rate_limited', `Rate limit exceeded, retry in ${ctx.after}.`), { statusCode: 429 }),
    });
  }
  // The OpenID provider's paths leave Fastify here, before the CSRF and session hooks (ADR-006).
  const oidc = new OidcHost({
    db: database.db,
    secrets,
    publicUrl: env.PUBLIC_URL,
    trustProxy: env.TRUST_PROXY,
    consoleUser: async (token) => {
      const resolved = await app.services.auth.resolve(token);
      return resolved?.actor.state === 'active' ? { userId: resolved.actor.userId, mfaPassed: resolved.actor.mfaPassed } : undefined;
    },
  });
  await app.register(oidcMountPlugin, { host: oidc, openidEnabled: async () => (await app.services.settings.moduleFlags()).openid });
  await app.register(csrfPlugin, { publicUrl: env.PUBLIC_URL });
  const sessionCookie = { secure: env.PUBLIC_URL?.startsWith('https://') ?? false, maxAgeSeconds: env.SESSION_TTL_HOURS * 3600 };
  await app.register(sessionPlugin, sessionCookie);
  app.decorate('mfa', new MfaCore(database.db, secrets, env.SESSION_TTL_HOURS * 3600_000, sessionCookie));
  await app.register(accessPlugin, {
    moduleFlags: () => app.services.settings.moduleFlags(),
    enterpriseCheck: () => licence.assertEnterpriseEnabled(),
  });
  await app.register(inputGuardPlugin);
  await app.register(openapiPlugin);

  await app.register(healthRoutes, { health: new HealthRepo(database) });
  await app.register(registerOpenapiRoute);
  await app.register(authRoutes, sessionCookie);
  await app.register(mfaRoutes, { db: database.db, secrets });
  await app.register(settingsRoutes);
  await app.register(licenceRoutes, { licence });
  await app.register(updatesRoutes, { checker: updates });
  await app.register(mailRoutes, { db: database.db });
  await app.register(supportRoutes, { database, logs: logRing, supportEmail: env.SUPPORT_EMAIL });
  await app.register(ldapSyncRoutes, { service: new LdapSyncService(database, secrets) });
  await app.register(directorySyncRoutes, { service: new DirectorySyncService(database, secrets, options.directorySync?.endpoints) });
  await app.register(ldapRoutes, { db: database.db, secrets });
  await app.register(usersRoutes);
  await app.register(groupsRoutes);
  await app.register(networksRoutes);
  await app.register(devicesRoutes);
  await app.register(networkDevicesRoutes);
  await app.register(enrollmentRoutes, { db: database.db, publicUrl: env.PUBLIC_URL, secureCookie: sessionCookie.secure });
  await app.register(passwordResetRoutes, { db: database.db, publicUrl: env.PUBLIC_URL });
  await app.register(enrollmentClientRoutes, { db: database.db });
  await app.register(gatewaysRoutes);
  await app.register(statsRoutes);
  await app.register(webhooksRoutes, { db: database.db, secrets });
  // Deleting an app removes the provider's artifacts of it (the module does not import oidc/).
  await app.register(oauthClientsRoutes, { db: database.db, secrets, onAppDeleted: deleteClientArtifacts });
  await app.register(activityLogRoutes, { db: database.db });
  await app.register(openidInteractionRoutes, { host: oidc, db: database.db, secrets });
  await app.register(authorizedAppsRoutes, { db: database.db });
  await app.register(apiTokensRoutes);
  await app.register(authKeysRoutes, { db: database.db });
  await app.register(yubikeysRoutes, { db: database.db });
  const workers = new WorkersService(database.db, {
    heartbeatTimeoutMs: env.WORKER_HEARTBEAT_TIMEOUT_SECONDS * 1000,
    jobDeadlineMs: env.WORKER_JOB_DEADLINE_SECONDS * 1000,
  });
  await app.register(workersRoutes, { service: workers });
  await app.register(externalIdpRoutes, {
    db: database.db,
    secrets,
    publicUrl: env.PUBLIC_URL,
    sessionCookie,
    enterpriseCheck: () => licence.assertEnterpriseEnabled(),
  });
  await app.register(vpnSessionsRoutes, { db: database.db, secrets, publicUrl: env.PUBLIC_URL });
  await app.register(webauthnRoutes, { db: database.db, publicUrl: env.PUBLIC_URL });
  await app.register(emailCodeRoutes, { db: database.db, secrets });
  await app.register(aclCheckRoutes, { db: database.db });
  await app.register(aclRoutes, { db: database.db });
  await app.register(activityLogStreamsRoutes, {
    streams: new StreamsService(database.db, {
      secrets,
      egressPolicy: async () => ({ allowCidrs: (await app.services.settings.get()).egress_allow_cidrs }),
    }),
  });
  await app.register(staticWebPlugin, { webDist: options.webDist });
  return app;
}
