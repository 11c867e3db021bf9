import { openDatabase } from '#src/db/client.js';
import { runMigrations } from '#src/db/migrate.js';
import { EnvError, loadEnv } from '#src/env.js';
import { formatMode, type ModeChange, secureDataDir } from '#src/lib/data-dir.js';
import { setArgon2Concurrency } from '#src/lib/password.js';
import { resolveSecretKey } from '#src/lib/secret-key.js';
import { gracefulShutdown, SHUTDOWN_CLOSE_DEADLINE_MS } from '#src/modules/health/drain.js';
import { preloadedLicenceOptions } from '#src/modules/licence/preloaded-options.js';
import { bootstrap } from '#src/modules/users/bootstrap.service.js';
import { findWebDist } from '#src/plugins/static-web.js';
import { buildApp } from './app.js';

/** How long closing may take after the drain (in-flight requests, gateway streams, jobs, the pool). */

async function main(): Promise<void> {
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const started = Date.now();
  if (env.ARGON2_CONCURRENCY !== undefined) setArgon2Concurrency(env.ARGON2_CONCURRENCY);
  const tightened = await secureDataDir(env.DATA_DIR);
  const secretKey = await resolveSecretKey(env.SECRET_KEY, env.DATA_DIR);
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolSize: env.DATABASE_POOL_SIZE,
    connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
  });
  await runMigrations(database);
  const boot = await bootstrap(database.db, env.ADMIN_PASSWORD);
  if (boot.generatedPassword) {
    // Printed once to stdout, never through the logger (logs must not hold passwords).
    process.stdout.write(
      `\n  Palisade first start: user "admin" created with password: ${boot.generatedPassword}\n  It is shown only once; change it after logging in.\n\n`,
    );
  }
  const webDist = findWebDist(env.WEB_DIST);
  // Production serializes responses with the compiled serializers alone (no zod encode per response).
  // Set only by the end-to-end suite's preload (docs/licensing.md); undefined in production.
  const licence = preloadedLicenceOptions();
  const app = await buildApp({
    env,
    database,
    webDist,
    secretKey,
    grpc: { port: env.GRPC_PORT },
    checkResponses: false,
    jobs: true,
    licence,
  });
  if (licence) app.log.warn('Test licence options preloaded (e2e/support/licence-preload.mjs): test-signed licence keys are accepted.');
  app.addHook('onClose', async () => database.close());
  logDataDirModes(app.log, env.DATA_DIR, tightened);
  const reserved = await app.services.users.findReservedUsernames();
  if (reserved.length > 0) {
    app.log.warn(
      { usernames: reserved },
      'Some users have a name the API reserves (a fixed route has the same path, e.g. POST /device/network): calls addressed to them by name on that path reach the fixed route instead. Rename them.',
    );
  }
  const purge = setInterval(() => void app.services.auth.purgeExpired().catch(() => undefined), 3600_000);
  purge.unref();

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // SIGTERM drains first (a load balancer takes the process out); Ctrl-C closes at once.
    void gracefulShutdown({
      drain: app.drain,
      drainMs: signal === 'SIGTERM' ? env.SHUTDOWN_DRAIN_SECONDS * 1000 : 0,
      closeDeadlineMs: SHUTDOWN_CLOSE_DEADLINE_MS,
      close: () => app.close(),
      log: app.log,
    }).then((code) => process.exit(code));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(
    { database: database.kind, web: webDist ?? 'not built', startupMs: Date.now() - started },
    `Palisade listening on http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`,
  );
}

/** One warning for what was tightened, one for what could not be (paths owned by another account). */
function logDataDirModes(log: { warn(o: object, m: string): void }, dataDir: string, changes: ModeChange[]): void {
  const describe = (list: ModeChange[]) => list.slice(0, 10).map((c) => `${c.path} ${formatMode(c.from)} -> ${formatMode(c.to)}`);
  const applied = changes.filter((c) => c.applied);
  const refused = changes.filter((c) => !c.applied);
  if (applied.length > 0) {
    log.warn(
      { dataDir, count: applied.length, changed: describe(applied) },
      `DATA_DIR permissions tightened: ${applied.length} paths were readable by other local users (now owner-only)`,
    );
  }
  if (refused.length > 0) {
    log.warn(
      { dataDir, count: refused.length, paths: describe(refused) },
      `DATA_DIR permissions: ${refused.length} paths readable by other local users could not be tightened (not owned by this account); fix them with chmod`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Palisade failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
