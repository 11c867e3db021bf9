import { EgressRequestError, type EgressPolicy, sendOutgoing } from '#src/lib/egress/index.js';
import { streamBody } from '#src/modules/activity-log-streams/stream-record.js';
import { type StreamRow, StreamsRepo, streamConsumerName } from '#src/modules/activity-log-streams/streams.repo.js';
import { type EventCursor, type EventRecord, EventsRepo } from '#src/modules/events/events.repo.js';
import type { Job, JobContext, JobFactory } from './jobs.js';

/** Delivery parameters (issue §4: batches of ≤ 500 events or 1 s; 10 s timeout; backoff to 60 s). */
export const STREAM_DELIVERY = {
  batchMax: 500,
  /** A batch waits for more events until its oldest event is this old. */
  lingerMs: 1_000,
  timeoutMs: 10_000,
  backoffBaseMs: 1_000,
  backoffMaxMs: 60_000,
  /** The consumer lease; renewed on every batch and while backing off. */
  leaseMs: 30_000,
  /** Idle wait when there is nothing to send (a commit notification ends it sooner). */
  idleMs: 5_000,
  /** How often the set of destinations is re-read. */
  rescanMs: 2_000,
} as const;

/** Exponential backoff with jitter: 1 s doubling to 60 s, each wait drawn from [½, 1] of that. */
export function streamBackoffMs(failures: number, random: () => number = Math.random): number {
  const exp = Math.min(STREAM_DELIVERY.backoffMaxMs, STREAM_DELIVERY.backoffBaseMs * 2 ** Math.max(0, Math.min(failures - 1, 16)));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

function sleep(ms: number, abort: AbortSignal): Promise<void> {
  if (abort.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      abort.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    abort.addEventListener('abort', done, { once: true });
  });
}

const cursorOf = (e: EventRecord): EventCursor => ({ tx: e.tx_id, id: e.id });
const occurredMs = (e: EventRecord): number => new Date(e.occurred_at).getTime();

function describeFailure(error: unknown): string {
  if (error instanceof EgressRequestError) return `${error.kind}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Delivers the events to one destination (consumer `stream:<id>`), in order, at least once: the
 * cursor moves only after a 2xx; on any failure the same events are sent again after a backoff,
 * so nothing is skipped while the destination is down. The lease keeps other replicas out.
 */
class DestinationLoop {
  readonly #abort = new AbortController();
  readonly #events: EventsRepo;
  readonly #streams: StreamsRepo;
  readonly #name: string;
  #failures = 0;
  readonly done: Promise<void>;

  constructor(
    private readonly ctx: JobContext,
    private readonly id: number,
    /** The duration of each batch sent (delivered or failed), without the linger and backoff waits (for /metrics). */
    private readonly onBatch: (seconds: number) => void = () => undefined,
  ) {
    this.#events = new EventsRepo(ctx.database.db);
    this.#streams = new StreamsRepo(ctx.database.db);
    this.#name = streamConsumerName(id);
    this.done = this.#run();
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.done;
  }

  async #run(): Promise<void> {
    const abort = this.#abort.signal;
    try {
      while (!abort.aborted) {
        try {
          if ((await this.#step()) === 'gone') return;
        } catch (error) {
          // The database itself failed (the send's failures are handled in #step): wait and retry.
          this.#failures += 1;
          this.ctx.log.warn({ err: error, stream: this.id }, 'activity log stream: delivery step failed');
          await sleep(streamBackoffMs(this.#failures), abort);
        }
      }
    } finally {
      await this.#events.release(this.#name, this.ctx.owner).catch(() => undefined);
    }
  }

  /** One batch: lease, read (and linger for more), send, then advance or back off. */
  async #step(): Promise<'gone' | undefined> {
    const abort = this.#abort.signal;
    const { signal, owner } = this.ctx;
    const cursor = await this.#events.lease(this.#name, owner, STREAM_DELIVERY.leaseMs);
    const destination = await this.#streams.get(this.id);
    if (!destination) return 'gone';
    if (!cursor) {
      // Another replica holds the lease.
      await sleep(STREAM_DELIVERY.leaseMs / 3, abort);
      return undefined;
    }
    let generation = signal.generation;
    const batch = await this.#events.readAfter(cursor, STREAM_DELIVERY.batchMax);
    if (batch.length === 0) {
      await signal.wait(STREAM_DELIVERY.idleMs, generation, abort);
      return undefined;
    }
    // Fill the batch with what arrives until its oldest event is lingerMs old (or it is full).
    const first = batch[0] as EventRecord;
    const lingerUntil = Math.min(Date.now() + STREAM_DELIVERY.lingerMs, occurredMs(first) + STREAM_DELIVERY.lingerMs);
    while (batch.length < STREAM_DELIVERY.batchMax && Date.now() < lingerUntil && !abort.aborted) {
      await signal.wait(lingerUntil - Date.now(), generation, abort);
      generation = signal.generation;
      const more = await this.#events.readAfter(cursorOf(batch[batch.length - 1] as EventRecord), STREAM_DELIVERY.batchMax - batch.length);
      batch.push(...more);
    }
    if (abort.aborted) return undefined;
    const began = performance.now();
    const outcome = await this.#send(destination, batch);
    if (outcome === undefined) {
      this.#failures = 0;
      // False when another replica took the lease meanwhile: it re-sends from the old cursor.
      if (await this.#events.advance(this.#name, owner, cursorOf(batch[batch.length - 1] as EventRecord))) {
        await this.#streams.markSuccess(this.id);
      }
      this.onBatch((performance.now() - began) / 1000);
      return undefined;
    }
    this.#failures += 1;
    await this.#streams.markError(this.id, outcome);
    this.onBatch((performance.now() - began) / 1000);
    this.ctx.log.warn({ stream: this.id, error: outcome, failures: this.#failures }, 'activity log stream: delivery failed');
    await this.#backOff(streamBackoffMs(this.#failures));
    return undefined;
  }

  /** Sends one batch; undefined on a 2xx, else what went wrong (kept as the row's last error). */
  async #send(destination: StreamRow, batch: EventRecord[]): Promise<string | undefined> {
    const settings = await this.ctx.services.settings.get();
    const policy: EgressPolicy = { allowCidrs: settings.egress_allow_cidrs };
    let password = '';
    try {
      // Sealed with the instance key: a changed SECRET_KEY shows here, as this destination's error.
      password = destination.passwordEnc === '' ? '' : this.ctx.secrets.decrypt(destination.passwordEnc);
    } catch {
      return 'the stored password cannot be decrypted with this instance key; enter it again';
    }
    try {
      const response = await sendOutgoing({
        url: destination.url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: streamBody(batch),
        timeoutMs: STREAM_DELIVERY.timeoutMs,
        policy,
        ...(destination.certificate !== '' ? { ca: destination.certificate } : {}),
        ...(destination.username !== '' ? { basicAuth: { username: destination.username, password } } : {}),
        maxResponseBytes: 256,
      });
      if (response.status >= 200 && response.status < 300) return undefined;
      const excerpt = response.excerpt.trim().slice(0, 200);
      return `HTTP ${response.status}${excerpt ? `: ${excerpt}` : ''}`;
    } catch (error) {
      return describeFailure(error);
    }
  }

  /** Waits `ms` while keeping the lease, so no other replica sends meanwhile. */
  async #backOff(ms: number): Promise<void> {
    const abort = this.#abort.signal;
    const until = Date.now() + ms;
    while (!abort.aborted && Date.now() < until) {
      await sleep(Math.min(until - Date.now(), STREAM_DELIVERY.leaseMs / 3), abort);
      if (!abort.aborted && !(await this.#events.lease(this.#name, this.ctx.owner, STREAM_DELIVERY.leaseMs))) return;
    }
  }
}

/** Runs one delivery loop per destination, starting and stopping loops as destinations come and go. */
class StreamDeliveryJob implements Job {
  readonly name = 'activity-log-streams';
  onRound: Job['onRound'];
  readonly #abort = new AbortController();
  readonly #loops = new Map<number, DestinationLoop>();
  #running: Promise<void> | undefined;

  constructor(private readonly ctx: JobContext) {}

  start(): void {
    this.#running ??= this.#supervise();
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#running;
    await Promise.all([...this.#loops.values()].map((loop) => loop.stop()));
    this.#loops.clear();
  }

  async #supervise(): Promise<void> {
    const abort = this.#abort.signal;
    const repo = new StreamsRepo(this.ctx.database.db);
    while (!abort.aborted) {
      try {
        const ids = new Set(await repo.ids());
        for (const [id, loop] of this.#loops) {
          if (!ids.has(id)) {
            this.#loops.delete(id);
            void loop.stop();
          }
        }
        for (const id of ids)
          if (!this.#loops.has(id) && !abort.aborted) this.#loops.set(id, new DestinationLoop(this.ctx, id, (s) => this.onRound?.(s)));
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'activity log stream: listing destinations failed');
      }
      await sleep(STREAM_DELIVERY.rescanMs, abort);
    }
  }
}

export const streamDeliveryJob: JobFactory = (ctx) => new StreamDeliveryJob(ctx);
