import { EgressRequestError, type OutgoingRequest, type OutgoingResponse, sendOutgoing } from '#src/lib/egress/index.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { type AttemptReply, DELIVERY_POLICY, type DeliveryPolicy, decide } from '#src/modules/webhooks/delivery-policy.js';
import { type AttemptResult, type ClaimedDelivery, WebhookDeliveriesRepo } from '#src/modules/webhooks/webhook-deliveries.repo.js';
import { signedHeaders, signingKey, webhookMessageId } from '#src/modules/webhooks/webhook-signature.js';
import type { Job, JobContext, JobFactory } from './jobs.js';
import { sleep, WebhookFanout } from './webhook-fanout.js';

export interface WebhookJobOptions {
  policy?: Partial<DeliveryPolicy>;
  /** The longest the delivery loop sleeps when nothing is due (redeliveries are found by this poll). */
  idleMs?: number;
  send?: (req: OutgoingRequest) => Promise<OutgoingResponse>;
  random?: () => number;
}

/** How long a claim holds a delivery beyond the request timeout (writing the attempt included). */
const CLAIM_MARGIN_MS = 60_000;
/** The allow-list is re-read at most this often. */
const POLICY_TTL_MS = 2_000;

const errorText = (error: unknown): string =>
  error instanceof EgressRequestError ? `${error.kind}: ${error.message}` : error instanceof Error ? error.message : String(error);

/**
 * Sends due deliveries (ADR-005): claims them with `FOR UPDATE SKIP LOCKED`, keeps up to
 * `concurrency` requests in flight, and writes the finished attempts in batches (the log row,
 * the delivery's new state and the trim of the log to 100, in one transaction).
 */
class WebhookDelivery {
  readonly #repo: WebhookDeliveriesRepo;
  readonly #settings: SettingsRepo;
  readonly #policy: DeliveryPolicy;
  readonly #send: (req: OutgoingRequest) => Promise<OutgoingResponse>;
  readonly #random: () => number;
  readonly #idleMs: number;
  readonly #keys = new Map<string, Buffer>();
  #allow: { cidrs: string[]; readAt: number } | undefined;
  #inFlight = new Set<Promise<void>>();
  #finished: AttemptResult[] = [];
  #wake: (() => void) | undefined;
  #woken = false;

  constructor(
    private readonly ctx: JobContext,
    options: WebhookJobOptions,
    /** The duration of each round that claimed deliveries or wrote attempts (for /metrics). */
    private readonly onBatch: (seconds: number) => void = () => undefined,
  ) {
    this.#repo = new WebhookDeliveriesRepo(ctx.database.db);
    this.#settings = new SettingsRepo(ctx.database.db);
    this.#policy = { ...DELIVERY_POLICY, ...options.policy };
    this.#send = options.send ?? sendOutgoing;
    this.#random = options.random ?? Math.random;
    this.#idleMs = options.idleMs ?? 1_000;
  }

  /** Ends the current wait (a delivery was queued or a request finished). */
  wake(): void {
    this.#woken = true;
    this.#wake?.();
  }

  async run(abort: AbortSignal): Promise<void> {
    while (!abort.aborted) {
      const generation = this.ctx.signal.generation;
      this.#woken = false;
      let claimedAll = false;
      try {
        const began = performance.now();
        const written = await this.#flush();
        let started = 0;
        const free = this.#policy.concurrency - this.#inFlight.size;
        if (free > 0) {
          const claimed = await this.#repo.claim(free, this.#policy.timeoutMs + CLAIM_MARGIN_MS);
          claimedAll = claimed.length === free;
          if (claimed.length > 0) {
            const policy = { allowCidrs: await this.#allowCidrs() };
            for (const delivery of claimed) this.#start(delivery, policy);
            started = claimed.length;
          }
        }
        if (written + started > 0) this.onBatch((performance.now() - began) / 1000);
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'webhook delivery failed; retrying');
        await sleep(2_000, abort);
        continue;
      }
      if (claimedAll || this.#woken || this.#finished.length > 0) continue;
      await this.#idle(generation, abort);
    }
    // Requests in flight end within the timeout; their attempts are written before stopping.
    await Promise.all(this.#inFlight);
    await this.#flush().catch((error: unknown) => this.ctx.log.warn({ err: error }, 'webhook attempts not written'));
  }

  /** Waits for a wake-up, a commit notification, the next due retry, or the idle poll. */
  async #idle(generation: number, abort: AbortSignal): Promise<void> {
    const dueIn = this.#inFlight.size === 0 ? await this.#repo.nextDueInMs().catch(() => undefined) : undefined;
    // At least 10 ms: a delivery due now but claimed elsewhere must not make this a busy loop.
    const ms = Math.max(10, Math.min(this.#idleMs, dueIn ?? this.#idleMs));
    const stopWaiting = new AbortController();
    const onAbort = () => stopWaiting.abort();
    abort.addEventListener('abort', onAbort, { once: true });
    await Promise.race([
      this.ctx.signal.wait(ms, generation, stopWaiting.signal),
      new Promise<void>((resolve) => {
        this.#wake = resolve;
        if (this.#woken) resolve();
      }),
    ]);
    this.#wake = undefined;
    stopWaiting.abort();
    abort.removeEventListener('abort', onAbort);
  }

  #start(delivery: ClaimedDelivery, policy: { allowCidrs: string[] }): void {
    const task = this.#attempt(delivery, policy)
      .then((result) => {
        this.#finished.push(result);
      })
      .catch((error: unknown) => this.ctx.log.warn({ err: error }, 'webhook attempt failed unexpectedly'))
      .finally(() => {
        this.#inFlight.delete(task);
        this.wake();
      });
    this.#inFlight.add(task);
  }

  async #attempt(d: ClaimedDelivery, policy: { allowCidrs: string[] }): Promise<AttemptResult> {
    const attempt = d.attempts + 1;
    const started = new Date();
    const p = d.payload;
    // The documented field order (jsonb stores keys in its own order).
    const body = JSON.stringify({ id: p.id, type: p.type, timestamp: p.timestamp, data: p.data });
    const headers = signedHeaders(this.#key(d.token_enc), webhookMessageId(d.event_id), body, started);
    let reply: AttemptReply;
    const base = {
      webhook_id: d.webhook_id,
      delivery_id: d.id,
      event_id: d.event_id,
      event_type: d.event_type,
      attempt,
      attempted_at: started.toISOString(),
    };
    let row: Pick<AttemptResult, 'duration_ms' | 'status_code' | 'error' | 'response_excerpt'>;
    try {
      const res = await this.#send({ url: d.url, headers, body, timeoutMs: this.#policy.timeoutMs, policy });
      reply = { status: res.status, retryAfterMs: res.retryAfterMs };
      row = {
        duration_ms: res.durationMs,
        status_code: res.status,
        error: null,
        response_excerpt: res.excerpt === '' ? null : res.excerpt,
      };
    } catch (error) {
      reply = { failure: error instanceof EgressRequestError ? error.kind : 'network' };
      row = {
        duration_ms: error instanceof EgressRequestError ? error.durationMs : Date.now() - started.getTime(),
        status_code: null,
        error: errorText(error).slice(0, 1024),
        response_excerpt: null,
      };
    }
    const now = Date.now();
    const decision = decide(reply, attempt, d.created_ms, now, this.#policy, this.#random);
    return {
      ...base,
      ...row,
      outcome: decision.outcome,
      next_attempt_at: decision.outcome === 'retrying' ? new Date(now + decision.delayMs).toISOString() : null,
    };
  }

  #key(tokenEnc: string): Buffer {
    let key = this.#keys.get(tokenEnc);
    if (!key) {
      if (this.#keys.size > 1_000) this.#keys.clear();
      key = signingKey(this.ctx.secrets.decrypt(tokenEnc));
      this.#keys.set(tokenEnc, key);
    }
    return key;
  }

  async #allowCidrs(): Promise<string[]> {
    if (!this.#allow || Date.now() - this.#allow.readAt > POLICY_TTL_MS) {
      this.#allow = { cidrs: (await this.#settings.get()).egressAllowCidrs, readAt: Date.now() };
    }
    return this.#allow.cidrs;
  }

  /** Writes the finished attempts; resolves to how many it handled. */
  async #flush(): Promise<number> {
    if (this.#finished.length === 0) return 0;
    const batch = this.#finished;
    this.#finished = [];
    try {
      await this.#repo.recordAttempts(batch);
    } catch (error) {
      // Not written: the claims lapse and these deliveries are sent again (same webhook-id).
      this.ctx.log.warn({ err: error, count: batch.length }, 'webhook attempts not written');
    }
    return batch.length;
  }
}

/** The webhook fan-out and delivery loops as one job (the fan-out wakes the sender). */
export function makeWebhooksJob(options: WebhookJobOptions = {}): JobFactory {
  return (ctx: JobContext): Job => {
    let abort: AbortController | undefined;
    let running: Promise<unknown> | undefined;
    const job: Job = {
      name: 'webhooks',
      start() {
        abort = new AbortController();
        const delivery = new WebhookDelivery(ctx, options, (s) => job.onRound?.(s, 'webhook-delivery'));
        const fanout = new WebhookFanout(
          ctx,
          () => delivery.wake(),
          (s) => job.onRound?.(s, 'webhook-fanout'),
        );
        const signal = abort.signal;
        running = Promise.all([
          fanout.run(signal).catch((error: unknown) => ctx.log.error({ err: error }, 'webhook fan-out stopped')),
          delivery.run(signal).catch((error: unknown) => ctx.log.error({ err: error }, 'webhook delivery stopped')),
        ]);
      },
      async stop() {
        abort?.abort();
        await running;
      },
    };
    return job;
  };
}

export const webhooksJob: JobFactory = makeWebhooksJob();
