import type { DatabaseHandle } from '#src/db/client.js';

export const EVENTS_CHANNEL = 'palisade_events';

/**
 * Wakes consumers when events commit (a statement trigger on `events` notifies
 * `palisade_events`; PostgreSQL sends it at commit). Consumers still poll on a timeout, so a
 * notification lost to a dropped connection delays delivery by at most that timeout.
 */
export class EventSignal {
  #waiters = new Set<() => void>();
  #stop: (() => Promise<void>) | undefined;
  /** Bumped on every notification: a consumer that read before it knows to read again. */
  generation = 0;

  constructor(private readonly database: DatabaseHandle) {}

  async start(): Promise<void> {
    if (this.#stop || !this.database.listen) return;
    this.#stop = await this.database.listen(
      EVENTS_CHANNEL,
      () => this.notify(),
      () => this.notify(),
    );
  }

  notify(): void {
    this.generation += 1;
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next notification after `since` (a generation), or after `ms`. */
  wait(ms: number, since = this.generation, abort?: AbortSignal): Promise<void> {
    if (this.generation !== since || abort?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }

  async stop(): Promise<void> {
    const stop = this.#stop;
    this.#stop = undefined;
    this.notify();
    await stop?.();
  }
}
