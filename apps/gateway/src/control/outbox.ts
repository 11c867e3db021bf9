/**
 * An async-iterable queue: the request side of the bidi stream. Messages pushed before the
 * stream pulls them wait in order; `close()` ends the iteration (half-closes the stream).
 */
export interface Outbox<T> extends AsyncIterable<T> {
  push(...items: T[]): void;
  close(): void;
}

export function createOutbox<T>(): Outbox<T> {
  const queue: T[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(...items) {
      if (closed) return;
      queue.push(...items);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (closed) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
