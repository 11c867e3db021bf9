import { type LoginSuccess, type MfaRequired, TOO_MANY_ATTEMPTS_DETAIL } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { randomToken, sha256 } from '#src/lib/crypto.js';
import { verifyPassword } from '#src/lib/password.js';
import { HttpProblem } from '#src/lib/problem.js';
import { anonymousActor, type RequestOrigin, userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent, toEventRow, withEvents } from '#src/modules/events/record-event.js';
import { userObject } from '#src/modules/users/users.events.js';
import type { LdapSignIn } from '#src/modules/ldap/ldap-sign-in.js';
import { mfaRequiredOf, PENDING_MFA_TTL_MS } from '#src/modules/mfa/mfa.core.js';
import { toUser } from '#src/modules/users/users.mapper.js';
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

/** The outcome of one password sign-in, told to `onLogin` (the /metrics counters). */
export type LoginOutcome = 'success' | 'mfa_pending' | 'failure' | 'locked_out';

export class AuthService {
  /** Told every sign-in outcome; buildApp points it at the metrics (modules/metrics). */
  onLogin: ((outcome: LoginOutcome) => void) | undefined;
  readonly #sessions: SessionsRepo;
  readonly #login: LoginRepo;

  constructor(
    private readonly db: Db,
    private readonly sessionTtlMs: number,
    /** LDAP sign-in (modules/ldap): linked accounts bind as their entry; unknown LDAP users are created. */
    private readonly ldap?: LdapSignIn,
  ) {
    this.#sessions = new SessionsRepo(db);
    this.#login = new LoginRepo(db);
  }

  async login(login: string, password: string, ctx: LoginContext): Promise<LoginResult> {
    try {
      const result = await this.#attempt(login, password, ctx);
      this.onLogin?.(result.kind === 'mfa' ? 'mfa_pending' : 'success');
      return result;
    } catch (error) {
      if (error instanceof HttpProblem && (error.status === 401 || error.status === 429)) {
        this.onLogin?.(error.code === 'auth.too_many_attempts' ? 'locked_out' : 'failure');
      }
      throw error;
    }
  }

  async #attempt(login: string, password: string, ctx: LoginContext): Promise<LoginResult> {
    const ipKey = `ip:${ctx.ip}`;
    // One counter per account, whether it is addressed by username or by email address.
    const attempt = await this.#login.begin(login, ipKey, { user: USERNAME_POLICY, ip: IP_POLICY });
    let { user } = attempt;
    const origin: RequestOrigin = { ip: ctx.ip, userAgent: ctx.userAgent?.slice(0, 512) || undefined };
    // Failed attempts name the account as it was typed; the account's owner sees them too.
    const refused = (type: 'auth.login_failed' | 'auth.locked_out', details?: Record<string, unknown>): DomainEvent => ({
      type,
      actor: anonymousActor(origin),
      object: { type: 'user', id: user?.id, name: login.slice(0, 64) },
      subjectUserId: user?.id,
      details,
    });
    if (attempt.locked || attempt.userFailures > USERNAME_POLICY.limit || attempt.ipFailures > IP_POLICY.limit) {
      await recordEvent(this.db, refused('auth.locked_out'));
      throw new HttpProblem(429, 'auth.too_many_attempts', TOO_MANY_ATTEMPTS_DETAIL);
    }
    const viaLdap = this.ldap
      ? await this.ldap.authenticate(login, password, user, origin).catch(async (error: unknown) => {
          if (error instanceof HttpProblem) await recordEvent(this.db, refused('auth.login_failed', { reason: 'ldap_unavailable' }));
          throw error;
        })
      : { handled: false as const };
    if (viaLdap.handled) user = viaLdap.user;
    const valid = viaLdap.handled ? viaLdap.user !== undefined : await verifyPassword(user?.passwordHash, password);
    if (!user || !valid) {
      await recordEvent(this.db, refused('auth.login_failed', { reason: (viaLdap.handled && viaLdap.reason) || 'invalid_credentials' }));
      throw new HttpProblem(401, 'auth.invalid_credentials', 'Invalid username or password.');
    }

    const token = randomToken();
    const state = user.mfaEnabled ? 'mfa_pending' : 'active';
    const event: DomainEvent = user.isActive
      ? {
          type: 'auth.login_succeeded',
          actor: userActor({ userId: user.id, username: user.username, ...origin }),
          object: userObject(user),
          details: state === 'mfa_pending' ? { mfa_pending: true } : {},
        }
      : refused('auth.login_failed', { reason: 'disabled' });
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
              // A pending-MFA session only lets the second step through, for 5 minutes.
              expiresAt: new Date(Date.now() + (state === 'mfa_pending' ? PENDING_MFA_TTL_MS : this.sessionTtlMs)),
            },
          }
        : {}),
      event: toEventRow(event),
    });
    if (!user.isActive) throw new HttpProblem(401, 'auth.user_disabled', 'This account is disabled.');
    if (state === 'mfa_pending') return { kind: 'mfa', token, body: { mfa: await mfaRequiredOf(this.db, user) } };
    return { kind: 'success', token, body: { user: toUser({ ...user, ...membership }) } };
  }

  async logout(token: string | undefined, origin: RequestOrigin): Promise<void> {
    if (!token) return;
    await withEvents(this.db, async (tx) => {
      const ended = await new SessionsRepo(tx).delete(sha256(token));
      if (!ended) return { result: undefined, events: [] };
      const actor = userActor({ userId: ended.userId, username: ended.username, ...origin });
      return {
        result: undefined,
        events: [{ type: 'auth.logout', actor, object: userObject({ id: ended.userId, username: ended.username }) }],
      };
    });
  }

  /**
   * The live session behind a cookie token, with a sliding expiry refreshed at most every 5 min;
   * `refreshed` says the expiry moved (the cookie's lifetime should follow).
   */
  async resolve(token: string): Promise<{ actor: SessionActor; refreshed: boolean } | undefined> {
    const id = sha256(token);
    const actor = await this.#sessions.findLive(id);
    if (!actor) return undefined;
    // A pending-MFA session is never extended.
    if (actor.state !== 'active' || Date.now() - actor.lastSeenAt.getTime() <= TOUCH_AFTER_MS) return { actor, refreshed: false };
    await this.#sessions.touch(id, new Date(Date.now() + this.sessionTtlMs));
    return { actor, refreshed: true };
  }

  purgeExpired(): Promise<number> {
    return this.#sessions.deleteExpired();
  }
}
