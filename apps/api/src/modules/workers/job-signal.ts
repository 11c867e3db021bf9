/**
 * Wakes a station's waiting poll when a job is queued for it (this process only; a poll served by
 * another API instance sees the job at its next look, WorkersService.poll checks every second).
 */
export class JobSignal {
  readonly #waiters = new Map<number, Set<() => void>>();
  #closed = false;

  /** After close() (the API is stopping): waiting polls answer at once. */
  get closed(): boolean {
    return this.#closed;
  }

  notify(workerId: number): void {
    for (const wake of this.#waiters.get(workerId) ?? []) wake();
  }

  /** Resolves after `ms`, on notify(workerId), on close(), or when `abort` fires, whichever is first. */
  wait(workerId: number, ms: number, abort?: AbortSignal): Promise<void> {
    if (this.#closed || abort?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.#waiters.get(workerId) ?? new Set();
      this.#waiters.set(workerId, set);
      const done = () => {
        clearTimeout(timer);
        abort?.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0) this.#waiters.delete(workerId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      abort?.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  close(): void {
    this.#closed = true;
    for (const set of this.#waiters.values()) for (const wake of [...set]) wake();
  }
}
