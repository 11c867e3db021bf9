import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { RedemptionAttemptsRepo } from './redemption-attempts.repo.js';

export interface RedemptionLimits {
  /** Attempts one client address may make in `windowSeconds` (all tokens together). */
  perIp: number;
  /** Attempts with one token in `windowSeconds` (from any address). */
  perToken: number;
  windowSeconds: number;
}

/**
 * Enough for a person going through the flow several times (each step is one attempt), far too few
 * to guess anything: a token is 256 random bits, so the limit is against hammering, not guessing.
 */
export const REDEMPTION_LIMITS: RedemptionLimits = { perIp: 60, perToken: 30, windowSeconds: 15 * 60 };

export const rateLimited = (windowSeconds: number) =>
  new HttpProblem(429, 'request.rate_limited', `Too many attempts. Try again in ${Math.ceil(windowSeconds / 60)} minutes.`);

/**
 * Counts redemption attempts of one-time tokens per client address and per token in fixed windows
 * (rows of `auth_failures`, keyed `redeem_ip:<address>` / `redeem_token:<hash>`, so every replica
 * counts together). Over a limit: 429 `request.rate_limited`, before the token is even looked up.
 */
export class RedemptionLimiter {
  constructor(
    private readonly db: Db,
    private readonly limits: RedemptionLimits = REDEMPTION_LIMITS,
  ) {}

  async attempt(ip: string | undefined, tokenHash: string | undefined): Promise<void> {
    const ipCount = await this.#count(`redeem_ip:${ip ?? 'unknown'}`);
    const tokenCount = tokenHash === undefined ? 0 : await this.#count(`redeem_token:${tokenHash}`);
    if (ipCount > this.limits.perIp || tokenCount > this.limits.perToken) throw rateLimited(this.limits.windowSeconds);
  }

  #count(key: string): Promise<number> {
    return new RedemptionAttemptsRepo(this.db).count(key, this.limits.windowSeconds);
  }
}
