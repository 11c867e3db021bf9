import type { Db } from '#src/db/client.js';
import { EventsRepo } from '#src/modules/events/events.repo.js';
import { type NewDelivery, WebhookDeliveriesRepo } from '#src/modules/webhooks/webhook-deliveries.repo.js';
import { buildPayloads } from '#src/modules/webhooks/webhook-payload.js';
import type { JobContext } from './jobs.js';

export const WEBHOOKS_CONSUMER = 'webhooks';

export const WEBHOOK_FANOUT = {
  /** Events read per step. */
  batch: 500,
  /**
   * Renewed on every step (at most `idleMs` apart); short, because a process that died holding it
   * delays the fan-out of its successor until it lapses.
   */
  leaseMs: 10_000,
  /** Idle wait when nothing is new (a commit notification ends it sooner). */
  idleMs: 2_000,
  /**
   * When committed events are not readable yet (an older transaction is still running, ADR-005),
   * look again after this instead of waiting for the next notification.
   */
  recheckMs: 100,
  /** After an error (database down), before trying again. */
  errorMs: 2_000,
} as const;

class LeaseLost extends Error {}

/** Resolves after `ms`, or at once when `abort` fires. */
export function sleep(ms: number, abort: AbortSignal): Promise<void> {
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

/**
 * The webhook fan-out (ADR-005): consumer `webhooks` reads committed events in order and, for
 * each event whose type an enabled webhook subscribes to, queues a delivery with the body built
 * now, moving its cursor in the same transaction. A re-read after a crash adds nothing (one
 * delivery per webhook and event). `onQueued` wakes the delivery loop.
 */
export class WebhookFanout {
  readonly #events: EventsRepo;

  constructor(
    private readonly ctx: JobContext,
    private readonly onQueued: () => void,
    /** The duration of each step that handled a batch of events (for /metrics). */
    private readonly onBatch: (seconds: number) => void = () => undefined,
  ) {
    this.#events = new EventsRepo(ctx.database.db);
  }

  async run(abort: AbortSignal): Promise<void> {
    // A new installation starts at the head: webhooks are for what happens from now on.
    await this.#retrying(abort, async () => {
      await this.#events.ensureConsumer(WEBHOOKS_CONSUMER, await this.#events.headCursor());
    });
    while (!abort.aborted) {
      const generation = this.ctx.signal.generation;
      let next: 'more' | 'soon' | 'idle';
      try {
        const began = performance.now();
        next = await this.step();
        if (next === 'more') this.onBatch((performance.now() - began) / 1000);
      } catch (error) {
        if (!(error instanceof LeaseLost)) this.ctx.log.warn({ err: error }, 'webhook fan-out failed; retrying');
        await sleep(WEBHOOK_FANOUT.errorMs, abort);
        continue;
      }
      if (next === 'soon') await sleep(WEBHOOK_FANOUT.recheckMs, abort);
      else if (next === 'idle') await this.ctx.signal.wait(WEBHOOK_FANOUT.idleMs, generation, abort);
    }
    await this.#events.release(WEBHOOKS_CONSUMER, this.ctx.owner).catch(() => undefined);
  }

  /**
   * One batch. `more`: read again right away; `soon`: events committed but not readable yet (an
   * older transaction is still open); `idle`: nothing new, or another replica holds the lease.
   */
  async step(): Promise<'more' | 'soon' | 'idle'> {
    const { owner } = this.ctx;
    const cursor = await this.#events.lease(WEBHOOKS_CONSUMER, owner, WEBHOOK_FANOUT.leaseMs);
    if (!cursor) {
      // Another replica holds the lease, or the consumer row is gone (a restored or reset
      // database): then it starts again from the head rather than never again.
      await this.#events.ensureConsumer(WEBHOOKS_CONSUMER, await this.#events.headCursor());
      return 'idle';
    }
    const batch = await this.#events.readAfter(cursor, WEBHOOK_FANOUT.batch);
    const last = batch.at(-1);
    if (!last) return (await this.#events.countAfter(cursor)) > 0 ? 'soon' : 'idle';
    let queued = 0;
    await this.ctx.database.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const deliveries = new WebhookDeliveriesRepo(tx);
      const subscribers = await deliveries.subscribers();
      const wanted = batch.filter((e) => subscribers.some((s) => s.triggers.includes(e.type)));
      const payloads = await buildPayloads(tx, wanted);
      const list: NewDelivery[] = [];
      wanted.forEach((e, i) => {
        const payload = payloads[i];
        if (!payload) return;
        for (const s of subscribers) {
          if (s.triggers.includes(e.type)) list.push({ webhook_id: s.id, event_id: e.id, event_type: e.type, payload });
        }
      });
      await deliveries.enqueue(list);
      queued = list.length;
      if (!(await new EventsRepo(tx).advance(WEBHOOKS_CONSUMER, owner, { tx: last.tx_id, id: last.id }))) throw new LeaseLost();
    });
    if (queued > 0) this.onQueued();
    // Read again: the next read finds the rest, or tells committed-but-not-yet-readable from nothing.
    return 'more';
  }

  async #retrying(abort: AbortSignal, fn: () => Promise<void>): Promise<void> {
    while (!abort.aborted) {
      try {
        await fn();
        return;
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'webhook fan-out could not start; retrying');
        await sleep(WEBHOOK_FANOUT.errorMs, abort);
      }
    }
  }
}
