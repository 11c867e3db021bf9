import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once the process drains before a shutdown (main.ts on SIGTERM; docs/operations.md#replicas). */
    drain: DrainState;
  }
}

/**
 * Whether the process is draining: it received SIGTERM and still serves, but readiness answers
 * 503 so that a load balancer takes it out of rotation before it stops accepting connections.
 */
export class DrainState {
  #since: number | undefined;

  begin(now: number = Date.now()): void {
    this.#since ??= now;
  }

  get draining(): boolean {
    return this.#since !== undefined;
  }
}

/**
 * Decorates `app.drain`. While draining, every response asks the client to close its connection
 * (`Connection: close`): a load balancer or browser holding a keep-alive connection to this process
 * opens its next one to a process that stays, instead of racing the close of an idle socket.
 */
export const drainPlugin: FastifyPluginAsync<{ drain?: DrainState }> = fp(async (app, options: { drain?: DrainState }) => {
  const drain = options.drain ?? new DrainState();
  app.decorate('drain', drain);
  app.addHook('onSend', async (request, reply) => {
    if (drain.draining && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
  });
});

/** How long main.ts lets the close after the drain take before it exits with status 1. */
export const SHUTDOWN_CLOSE_DEADLINE_MS = 10_000;

export interface ShutdownLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ShutdownOptions {
  drain: DrainState;
  /** How long the process keeps serving with readiness 503 before it closes (SHUTDOWN_DRAIN_SECONDS). */
  drainMs: number;
  /** How long the close itself may take (in-flight requests, gateway streams, jobs, pool) before giving up. */
  closeDeadlineMs: number;
  /** Stops accepting, waits for in-flight requests, ends gateway streams, stops jobs, closes the pool. */
  close: () => Promise<void>;
  log: ShutdownLog;
}

/**
 * The graceful shutdown of main.ts: drain (readiness 503, still serving), then close, under a hard
 * deadline. Resolves to the process exit code: 0 when everything closed in time, 1 otherwise.
 */
export async function gracefulShutdown(options: ShutdownOptions): Promise<0 | 1> {
  const { drain, drainMs, closeDeadlineMs, log } = options;
  drain.begin();
  if (drainMs > 0) {
    log.info({ drainMs }, 'draining: readiness answers 503, still serving until the load balancer takes this process out');
    await new Promise((resolve) => setTimeout(resolve, drainMs));
  }
  log.info({ closeDeadlineMs }, 'closing: no new connections, finishing in-flight requests, ending gateway streams');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), closeDeadlineMs);
  });
  try {
    const outcome = await Promise.race([options.close().then(() => 'closed' as const), deadline]);
    if (outcome === 'deadline') {
      log.error({ closeDeadlineMs }, 'shutdown deadline passed before everything closed; exiting anyway');
      return 1;
    }
    log.info({}, 'shut down cleanly');
    return 0;
  } catch (error) {
    log.error({ err: (error as Error).message }, 'shutdown failed');
    return 1;
  } finally {
    clearTimeout(timer);
  }
}
