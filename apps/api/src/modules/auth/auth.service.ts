import { type LoginSuccess, type MfaRequired, TOO_MANY_ATTEMPTS_DETAIL } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { verifyPassword } from '#src/lib/password.js';
import { HttpProblem } from '#src/lib/problem.js';
import { mfaMethodsOf, toUser } from '#src/modules/users/users.mapper.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { AuthFailuresRepo, type FailurePolicy } from './auth-failures.repo.js';
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
  readonly #failures: AuthFailuresRepo;
  readonly #users: UsersRepo;

  constructor(
    db: Db,
    private readonly sessionTtlMs: number,
  ) {
    this.#sessions = new SessionsRepo(db);
    this.#failures = new AuthFailuresRepo(db);
    this.#users = new UsersRepo(db);
  }

  async login(login: string, password: string, ctx: LoginContext): Promise<LoginResult> {
    const user = await this.#users.findByLogin(login);
    // One counter per account, whether it is addressed by username or by email address.
    const userKey = `user:${(user?.username ?? login).toLowerCase()}`;
    const ipKey = `ip:${ctx.ip}`;
    if ((await this.#failures.lockedKeys([userKey, ipKey])).length > 0) {
      throw new HttpProblem(429, 'auth.too_many_attempts', TOO_MANY_ATTEMPTS_DETAIL);
    }
    // Each attempt is counted before the password is checked (and taken back when it is right), so
    // parallel guesses cannot all pass the lock check above before any failure is recorded.
    const userAttempts = await this.#failures.recordFailure(userKey, USERNAME_POLICY);
    const ipAttempts = await this.#failures.recordFailure(ipKey, IP_POLICY);
    if (userAttempts > USERNAME_POLICY.limit || ipAttempts > IP_POLICY.limit) {
      throw new HttpProblem(429, 'auth.too_many_attempts', TOO_MANY_ATTEMPTS_DETAIL);
    }
    const valid = await verifyPassword(user?.passwordHash, password);
    if (!user || !valid) throw new HttpProblem(401, 'auth.invalid_credentials', 'Invalid username or password.');
    await this.#failures.clear(userKey);
    await this.#failures.forgive(ipKey, IP_POLICY);
    if (!user.isActive) throw new HttpProblem(401, 'auth.user_disabled', 'This account is disabled.');
    if (ctx.previousToken) await this.#sessions.delete(sha256(ctx.previousToken));

    const token = randomToken();
    const state = user.mfaEnabled ? 'mfa_pending' : 'active';
    await this.#sessions.insert({
      id: sha256(token),
      userId: user.id,
      state,
      ip: ctx.ip,
      userAgent: ctx.userAgent?.slice(0, 512) ?? null,
      expiresAt: new Date(Date.now() + this.sessionTtlMs),
    });
    if (state === 'mfa_pending') return { kind: 'mfa', token, body: { mfa: mfaMethodsOf(user) } };
    const [record] = await this.#users.withGroups([user]);
    if (!record) throw new Error('user vanished during login');
    return { kind: 'success', token, body: { user: toUser(record) } };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.#sessions.delete(sha256(token));
  }

  /** The live session behind a cookie token, with a sliding expiry refreshed at most every 5 min. */
  async resolve(token: string): Promise<SessionActor | undefined> {
    const id = sha256(token);
    const actor = await this.#sessions.findLive(id);
    if (actor && Date.now() - actor.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
      await this.#sessions.touch(id, new Date(Date.now() + this.sessionTtlMs));
    }
    return actor;
  }

  purgeExpired(): Promise<number> {
    return this.#sessions.deleteExpired();
  }
}
