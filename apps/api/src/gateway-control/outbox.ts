/**
 * An async queue: pushed items come out of the iterator in order until it is closed. It does not
 * bound itself; producers look at `size` and wait for `onTake` (called each time the consumer
 * takes an item) before pushing more.
 */
export class Outbox<T> implements AsyncIterable<T> {
  #items: T[] = [];
  onTake: (() => void) | undefined;
  #waiting: ((r: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((e: unknown) => void) | undefined;
  #closed = false;
  #error: unknown;

  push(item: T): void {
    if (this.#closed) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      this.#failWaiting = undefined;
      resolve({ value: item, done: false });
    } else this.#items.push(item);
  }

  /** Ends the iterator after the queued items; with `error`, the iterator throws it instead of ending. */
  close(error?: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#error = error;
    if (this.#waiting) {
      const resolve = this.#waiting;
      const reject = this.#failWaiting;
      this.#waiting = undefined;
      this.#failWaiting = undefined;
      if (error !== undefined) reject?.(error);
      else resolve({ value: undefined, done: true });
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Items pushed and not yet taken by the consumer. */
  get size(): number {
    return this.#items.length;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.#items.shift();
        if (item !== undefined) {
          this.onTake?.();
          return Promise.resolve({ value: item, done: false });
        }
        if (this.#closed)
          return this.#error !== undefined ? Promise.reject(this.#error) : Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.#waiting = resolve;
          this.#failWaiting = reject;
        });
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw: (e: unknown) => {
        this.close();
        return Promise.reject(e);
      },
    };
  }
}
