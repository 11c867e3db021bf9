import type { StatsRow } from './control.repo.js';

/**
 * Buffers peer stats rows and writes them in batches (one multi-row insert per flush): when
 * `maxRows` are waiting or `maxDelayMs` after the first buffered row. One flush at a time; rows
 * that arrive during a flush wait for the next. A failed flush drops its rows (stats are
 * best-effort; the next report of a peer carries its cumulative counters again).
 */
export class StatsWriter {
  #buffer: StatsRow[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (rows: StatsRow[]) => Promise<void>,
    private readonly options: { maxRows: number; maxDelayMs: number; onError: (e: unknown) => void },
  ) {}

  push(rows: StatsRow[]): void {
    if (rows.length === 0) return;
    for (const row of rows) this.#buffer.push(row);
    if (this.#buffer.length >= this.options.maxRows) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), this.options.maxDelayMs);
  }

  get pending(): number {
    return this.#buffer.length;
  }

  /** Writes everything buffered so far; resolves when it is written (or failed). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const rows = this.#buffer;
    this.#buffer = [];
    this.#flushing = this.#flushing.then(async () => {
      for (let i = 0; i < rows.length; i += this.options.maxRows) {
        await this.write(rows.slice(i, i + this.options.maxRows)).catch(this.options.onError);
      }
    });
    return this.#flushing;
  }
}
