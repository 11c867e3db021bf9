import { type LoginSuccess, type MfaRequired, TOO_MANY_ATTEMPTS_DETAIL } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { verifyPassword } from '#src/lib/password.js';
import { HttpProblem } from '#src/lib/problem.js';
import { mfaMethodsOf, toUser } from '#src/modules/users/users.mapper.js';
import { type FailurePolicy, LoginRepo } from './login.repo.js';
import { type SessionActor, SessionsRepo } from './sessions.repo.js';

/**
 * Login with per-username and per-IP brute-force limits whose counters live in the database, so
 * every API replica enforces the same lockout. A locked key answers 429 before any password check.
 */
export const USERNAME_POLICY: FailurePolicy = { limit: 5, windowSeconds: 15 * 60, lockSeconds: 5 * 60 };
export const IP_POLICY: FailurePolicy = { limit: 30, windowSeconds: 15 * 60, lockSeconds: 5 * 60 };

export interface LoginContext {
  ip: string;
  userAgent: string | undefined;
  previousToken: string | undefined;
}

export type LoginResult = { kind: 'success'; token: string; body: LoginSuccess } | { kind: 'mfa'; token: string; body: MfaRequired };

const TOUCH_AFTER_MS = 5 * 60 * 1000;

export class AuthService {
  readonly #sessions: SessionsRepo;
  readonly #login: LoginRepo;

  constructor(
    db: Db,
    private readonly sessionTtlMs: number,
  ) {
    this.#sessions = new SessionsRepo(db);
    this.#login = new LoginRepo(db);
  }

  async login(login: string, password: string, ctx: LoginContext): Promise<LoginResult> {
    const ipKey = `ip:${ctx.ip}`;
    // One counter per account, whether it is addressed by username or by email address.
    const attempt = await this.#login.begin(login, ipKey, { user: USERNAME_POLICY, ip: IP_POLICY });
    if (attempt.locked || attempt.userFailures > USERNAME_POLICY.limit || attempt.ipFailures > IP_POLICY.limit) {
      throw new HttpProblem(429, 'auth.too_many_attempts', TOO_MANY_ATTEMPTS_DETAIL);
    }
    const { user } = attempt;
    const valid = await verifyPassword(user?.passwordHash, password);
    if (!user || !valid) throw new HttpProblem(401, 'auth.invalid_credentials', 'Invalid username or password.');

    const token = randomToken();
    const state = user.mfaEnabled ? 'mfa_pending' : 'active';
    const membership = await this.#login.succeed({
      userId: user.id,
      userKey: attempt.userKey,
      ipKey,
      ipPolicy: IP_POLICY,
      ...(user.isActive
        ? {
            session: {
              id: sha256(token),
              previousId: ctx.previousToken ? sha256(ctx.previousToken) : null,
              state,
              ip: ctx.ip,
              userAgent: ctx.userAgent?.slice(0, 512) ?? null,
              expiresAt: new Date(Date.now() + this.sessionTtlMs),
            },
          }
        : {}),
    });
    if (!user.isActive) throw new HttpProblem(401, 'auth.user_disabled', 'This account is disabled.');
    if (state === 'mfa_pending') return { kind: 'mfa', token, body: { mfa: mfaMethodsOf(user) } };
    return { kind: 'success', token, body: { user: toUser({ ...user, ...membership }) } };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.#sessions.delete(sha256(token));
  }

  /**
   * The live session behind a cookie token, with a sliding expiry refreshed at most every 5 min;
   * `refreshed` says the expiry moved (the cookie's lifetime should follow).
   */
  async resolve(token: string): Promise<{ actor: SessionActor; refreshed: boolean } | undefined> {
    const id = sha256(token);
    const actor = await this.#sessions.findLive(id);
    if (!actor) return undefined;
    if (Date.now() - actor.lastSeenAt.getTime() <= TOUCH_AFTER_MS) return { actor, refreshed: false };
    await this.#sessions.touch(id, new Date(Date.now() + this.sessionTtlMs));
    return { actor, refreshed: true };
  }

  purgeExpired(): Promise<number> {
    return this.#sessions.deleteExpired();
  }
}
