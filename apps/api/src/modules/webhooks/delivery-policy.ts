import type { EgressFailureKind } from '#src/lib/egress/index.js';

/** How deliveries are sent and retried (docs/webhooks.md). Tests shorten the times. */
export interface DeliveryPolicy {
  /** The whole request (DNS, connect, TLS, send, response head). */
  timeoutMs: number;
  /** Retry n waits a random time in [0, min(backoffMaxMs, backoffBaseMs · 2^(n-1))] ("full jitter"). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** No attempt starts later than this after the first one (redeliver starts a new window). */
  retryWindowMs: number;
  /** A receiver's Retry-After is honoured up to this. */
  retryAfterMaxMs: number;
  /** Requests in flight per process. */
  concurrency: number;
}

export const DELIVERY_POLICY: DeliveryPolicy = {
  timeoutMs: 10_000,
  backoffBaseMs: 5_000,
  backoffMaxMs: 3_600_000,
  retryWindowMs: 24 * 3_600_000,
  retryAfterMaxMs: 3_600_000,
  concurrency: 32,
};

/** What an attempt came back with: an HTTP status, or an egress failure. */
export type AttemptReply = { status: number; retryAfterMs?: number | undefined } | { failure: EgressFailureKind };

export type AttemptDecision = { outcome: 'delivered' } | { outcome: 'failed' } | { outcome: 'retrying'; delayMs: number };

/** 5xx, 429, timeouts, network and TLS failures are retried; 2xx is done; anything else (other 4xx, 3xx, a blocked address) fails at once. */
export function isRetryable(reply: AttemptReply): boolean {
  if ('failure' in reply) return reply.failure !== 'blocked';
  return reply.status === 429 || reply.status >= 500;
}

export function backoffMs(attempt: number, policy: DeliveryPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.round(random() * cap);
}

/**
 * The outcome of attempt number `attempt` (1-based) of a delivery whose window began at
 * `windowStartMs`: delivered, failed, or retried after a delay that still falls inside the window.
 */
export function decide(
  reply: AttemptReply,
  attempt: number,
  windowStartMs: number,
  nowMs: number,
  policy: DeliveryPolicy,
  random: () => number = Math.random,
): AttemptDecision {
  if (!('failure' in reply) && reply.status >= 200 && reply.status < 300) return { outcome: 'delivered' };
  if (!isRetryable(reply)) return { outcome: 'failed' };
  const retryAfter = 'status' in reply ? reply.retryAfterMs : undefined;
  const delayMs = retryAfter !== undefined ? Math.min(Math.max(retryAfter, 0), policy.retryAfterMaxMs) : backoffMs(attempt, policy, random);
  if (nowMs + delayMs > windowStartMs + policy.retryWindowMs) return { outcome: 'failed' };
  return { outcome: 'retrying', delayMs };
}
