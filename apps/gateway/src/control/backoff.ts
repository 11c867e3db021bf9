/**
 * Reconnect delays: exponential growth with "full jitter" (a uniformly random delay up to the
 * cap), so that many gateways that lost the same API replica do not reconnect in lockstep.
 * `attempt` counts consecutive failures and resets once a stream delivered a snapshot or delta.
 * The slow policy is for errors an operator must fix (revoked token, deleted location).
 */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
}

export const RECONNECT: BackoffPolicy = { initialMs: 500, maxMs: 30_000, factor: 2 };
export const SLOW_RECONNECT: BackoffPolicy = { initialMs: 60_000, maxMs: 300_000, factor: 2 };

/** The cap of attempt `attempt` (0-based): initial · factor^attempt, at most max. */
export function backoffCap(attempt: number, policy: BackoffPolicy): number {
  return Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
}

/** A delay in [cap/2, cap]: random, but never so short that a flapping server is hammered. */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const cap = backoffCap(attempt, policy);
  return Math.floor(cap / 2 + (random() * cap) / 2);
}
