import { createHmac, randomInt } from 'node:crypto';
import { type LoginSuccess, type MfaRequired, TOO_MANY_ATTEMPTS_DETAIL } from '@palisade/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '#src/db/client.js';
import { randomToken, type SecretBox, sha256 } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { IP_POLICY, USERNAME_POLICY } from '#src/modules/auth/auth.service.js';
import { LoginRepo } from '#src/modules/auth/login.repo.js';
import { anonymousActor, originOf, type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent, toEventRow } from '#src/modules/events/record-event.js';
import { userObject } from '#src/modules/users/users.events.js';
import { toUser } from '#src/modules/users/users.mapper.js';
import { type MfaMethod, MfaRepo } from './mfa.repo.js';
import { MfaStepRepo, type StepAttempt } from './mfa-step.repo.js';
import { type SessionCookieOptions, setSessionCookie } from '#src/plugins/session.js';

/**
 * The MFA core (issue 10): the pending-MFA sign-in state, the second step's check under the login
 * lockout, and the bookkeeping of enabled methods and recovery codes. Method modules (TOTP,
 * recovery codes, email codes, WebAuthn) build on it through `app.mfa` (an `MfaCore`):
 *
 * - `pendingUser(request)`: the user a pending-MFA session belongs to (401 otherwise);
 * - `verifyPendingStep(request, reply, method, check)`: the sign-in step; answers like a login;
 * - `enableMethod(tx, userId, method)` / `disableMethod(tx, userId, method)`: keep
 *   `users.mfa_enabled` / `users.mfa_method` right; the first method returns new recovery codes;
 * - `enabledMethods(db, userId)`, `regenerateRecoveryCodes(tx, userId)`, `useRecoveryCode(db, userId, code)`.
 */

export type { MfaMethod } from './mfa.repo.js';
/** What a sign-in step was passed with (`details.mfa_method` of `auth.login_succeeded`). */
export type MfaStepMethod = MfaMethod | 'recovery';
/** What a second-factor check outside the sign-in is for (`details.action` of `mfa.code_failed`). */
export type MfaCheckAction = 'totp_enable' | 'email_enable' | 'mfa_disable' | 'vpn_session';

/** A pending-MFA session lives 5 minutes and is never extended. */
export const PENDING_MFA_TTL_MS = 5 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;

/** Recovery code alphabet: no 0/o, 1/l/i. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export interface PendingUser {
  userId: number;
  username: string;
  sessionId: string;
}

export const enabledMethods = (db: Db, userId: number): Promise<MfaMethod[]> => new MfaRepo(db).enabledMethods(userId);

/** The `POST /auth` 201 body: the enabled methods and the default first. */
export async function mfaRequiredOf(db: Db, user: { id: number; mfaMethod: string | null }): Promise<MfaRequired['mfa']> {
  const methods = await enabledMethods(db, user.id);
  const fallback = methods[0];
  const defaultMethod = methods.includes(user.mfaMethod as MfaMethod) ? (user.mfaMethod as MfaMethod) : fallback;
  return { methods, ...(defaultMethod ? { default_method: defaultMethod } : {}) };
}

/** The pending user as a sign-in step's check sees it, with the enabled TOTP's secret (read with the attempt count). */
export interface PendingStepUser extends PendingUser {
  totp: StepAttempt['totp'];
}

/** A passed TOTP check: the time step the code matched, marked accepted by the success statement. */
export interface TotpStepPass {
  totpStep: number;
}

export class MfaCore {
  readonly #recoveryKey: Buffer;

  constructor(
    private readonly db: Db,
    secrets: SecretBox,
    private readonly sessionTtlMs: number,
    private readonly cookie: SessionCookieOptions,
  ) {
    this.#recoveryKey = secrets.deriveKey('mfa-recovery-codes');
  }

  /** The pending-MFA session's user; 401 when the caller has none (the first step was not passed). */
  pendingUser(request: FastifyRequest): PendingUser {
    const s = request.session;
    if (s?.state !== 'mfa_pending') throw new HttpProblem(401, 'auth.unauthenticated', 'You need to sign in.');
    return { userId: s.userId, username: s.username, sessionId: s.sessionId };
  }

  /**
   * The second sign-in step: counts the attempt against the same per-user and per-IP counters as
   * the password (429 when locked), runs `check`, answers 400 `auth.invalid_code` when it fails,
   * and otherwise replaces the pending session with an active one under a new cookie token and
   * answers like a password login, recording `auth.login_succeeded` with `details.mfa_method`.
   *
   * Two statements after the session lookup (`MfaStepRepo`): the attempt count, which also reads
   * the TOTP secret that `check` gets with the user, and after a passed check the success
   * statement. A TOTP check writes nothing itself: it returns the time step it matched, and the
   * success statement marks it accepted together with spending the pending session, all or
   * nothing (of two steps racing with the same code, or on the same pending session, one wins).
   */
  async verifyPendingStep(
    request: FastifyRequest,
    reply: FastifyReply,
    method: MfaStepMethod,
    check: (user: PendingStepUser) => Promise<boolean | TotpStepPass> | boolean | TotpStepPass,
  ): Promise<LoginSuccess> {
    const pending = this.pendingUser(request);
    const steps = new MfaStepRepo(this.db);
    const ipKey = `ip:${request.ip}`;
    const attempt = await steps.begin(pending, ipKey, { user: USERNAME_POLICY, ip: IP_POLICY });
    const origin = originOf(request);
    const object = userObject({ id: pending.userId, username: pending.username });
    const refused = (type: 'auth.login_failed' | 'auth.locked_out', details?: Record<string, unknown>): DomainEvent => ({
      type,
      actor: anonymousActor(origin),
      object,
      subjectUserId: pending.userId,
      details: { mfa_method: method, ...details },
    });
    const invalidCode = async () => {
      await recordEvent(this.db, refused('auth.login_failed', { reason: 'invalid_code' }));
      return new HttpProblem(400, 'auth.invalid_code', 'Code is invalid');
    };
    if (attempt.locked || attempt.userFailures > USERNAME_POLICY.limit || attempt.ipFailures > IP_POLICY.limit) {
      await recordEvent(this.db, refused('auth.locked_out'));
      throw new HttpProblem(429, 'auth.too_many_attempts', TOO_MANY_ATTEMPTS_DETAIL);
    }
    const user = attempt.user;
    const passed = user && user.id === pending.userId ? await check({ ...pending, totp: attempt.totp }) : false;
    if (!user || passed === false) throw await invalidCode();
    const token = randomToken();
    const event: DomainEvent = {
      type: 'auth.login_succeeded',
      actor: userActor({ userId: user.id, username: user.username, ...origin }),
      object,
      details: { mfa_method: method },
    };
    const outcome = await steps.succeed({
      userId: user.id,
      userKey: attempt.userKey,
      ipKey,
      ipPolicy: IP_POLICY,
      pendingId: pending.sessionId,
      totpStep: passed === true ? null : passed.totpStep,
      session: {
        id: sha256(token),
        ip: request.ip,
        userAgent: origin.userAgent ?? null,
        expiresAt: new Date(Date.now() + this.sessionTtlMs),
      },
      event: toEventRow(event),
    });
    // A racing step spent the pending session first, or accepted this code's step first.
    if (!outcome.ok && outcome.reason === 'pending_spent') throw new HttpProblem(401, 'auth.unauthenticated', 'You need to sign in.');
    if (!outcome.ok) throw await invalidCode();
    setSessionCookie(reply, token, this.cookie);
    return { user: toUser({ ...user, groups: outcome.groups, isAdmin: outcome.isAdmin }) };
  }

  /**
   * A second-factor check outside the sign-in (enabling a method, turning MFA off with a code, a
   * VPN session's MFA) under the same per-user and per-IP counters as the password step. The
   * attempt is counted before `run` (parallel guesses cannot pass the lock check together); 429
   * `auth.too_many_attempts` when locked. `run` answers `undefined` when the code (or key) was
   * wrong: the attempt stays counted, `mfa.code_failed` is recorded and the answer is 400
   * `auth.invalid_code`. Otherwise (a value, or a problem of its own such as an expired challenge)
   * only this attempt is taken back: the counters are not cleared, so a user's own successes
   * cannot wipe out an attacker's counted guesses.
   */
  async guardedCheck<T>(actor: SignedInActor, method: MfaMethod, action: MfaCheckAction, run: () => Promise<T | undefined>): Promise<T> {
    const login = new LoginRepo(this.db);
    const ipKey = `ip:${actor.ip ?? 'unknown'}`;
    const attempt = await login.begin(actor.username, ipKey, { user: USERNAME_POLICY, ip: IP_POLICY });
    const object = userObject({ id: actor.userId, username: actor.username });
    const details = { mfa_method: method, action };
    if (attempt.locked || attempt.userFailures > USERNAME_POLICY.limit || attempt.ipFailures > IP_POLICY.limit) {
      await recordEvent(this.db, { type: 'auth.locked_out', actor: userActor(actor), object, details });
      throw new HttpProblem(429, 'auth.too_many_attempts', TOO_MANY_ATTEMPTS_DETAIL);
    }
    const forgive = async () => {
      const repo = new MfaRepo(this.db);
      await repo.forgiveAttempt(attempt.userKey, USERNAME_POLICY.limit);
      await repo.forgiveAttempt(ipKey, IP_POLICY.limit);
    };
    let result: T | undefined;
    try {
      result = await run();
    } catch (err) {
      await forgive();
      throw err;
    }
    if (result === undefined) {
      await recordEvent(this.db, { type: 'mfa.code_failed', actor: userActor(actor), object, details });
      throw new HttpProblem(400, 'auth.invalid_code', 'Code is invalid');
    }
    await forgive();
    return result;
  }

  /**
   * The password as proof outside the sign-in (turning MFA off), under the same per-user and
   * per-IP counters as `guardedCheck`: counted before the check, 429 `auth.too_many_attempts` when
   * locked, a wrong password stays counted and answers 400 `auth.invalid_password`; a right one
   * takes only this attempt back.
   */
  async guardedPasswordCheck(actor: SignedInActor, action: MfaCheckAction, check: () => Promise<boolean>): Promise<void> {
    const login = new LoginRepo(this.db);
    const ipKey = `ip:${actor.ip ?? 'unknown'}`;
    const attempt = await login.begin(actor.username, ipKey, { user: USERNAME_POLICY, ip: IP_POLICY });
    if (attempt.locked || attempt.userFailures > USERNAME_POLICY.limit || attempt.ipFailures > IP_POLICY.limit) {
      const object = userObject({ id: actor.userId, username: actor.username });
      await recordEvent(this.db, { type: 'auth.locked_out', actor: userActor(actor), object, details: { action } });
      throw new HttpProblem(429, 'auth.too_many_attempts', TOO_MANY_ATTEMPTS_DETAIL);
    }
    const forgive = async () => {
      const repo = new MfaRepo(this.db);
      await repo.forgiveAttempt(attempt.userKey, USERNAME_POLICY.limit);
      await repo.forgiveAttempt(ipKey, IP_POLICY.limit);
    };
    let ok: boolean;
    try {
      ok = await check();
    } catch (err) {
      await forgive();
      throw err;
    }
    if (!ok) {
      throw new HttpProblem(400, 'auth.invalid_password', 'The current password is incorrect.', [
        { path: 'password', code: 'invalid', message: 'Invalid value' },
      ]);
    }
    await forgive();
  }

  /**
   * Marks `method` enabled for the user and keeps the user's flags right: MFA on, the default
   * kept (or this method when there was none). Enabling the first method generates recovery codes,
   * returned once. Run it in the transaction that enables the method.
   */
  async enableMethod(tx: Db, userId: number, method: MfaMethod): Promise<{ recoveryCodes?: string[] }> {
    const repo = new MfaRepo(tx);
    const before = await repo.enabledMethods(userId);
    await repo.addMethod(userId, method);
    await repo.turnOn(userId, method);
    if (before.length > 0) return {};
    return { recoveryCodes: await this.regenerateRecoveryCodes(tx, userId) };
  }

  /**
   * Removes `method`; the default moves to another enabled method; without any left MFA is off and
   * the recovery codes are dropped. Returns the methods still enabled.
   */
  async disableMethod(tx: Db, userId: number, method: MfaMethod): Promise<MfaMethod[]> {
    const repo = new MfaRepo(tx);
    await repo.removeMethod(userId, method);
    const left = await repo.enabledMethods(userId);
    const current = (await repo.defaultMethod(userId)) as MfaMethod | null;
    const nextDefault = current && left.includes(current) ? current : (left[0] ?? null);
    await repo.setFlags(userId, left.length > 0, nextDefault);
    if (left.length === 0) await repo.deleteRecoveryCodes(userId);
    return left;
  }

  /**
   * Turns MFA off altogether (the user's `DELETE /auth/mfa`, an admin's reset): every method's
   * row, the TOTP secret, the security keys, pending challenges and emailed codes, and the
   * recovery codes go, so nothing registered before (say, by someone who had the account) survives.
   */
  async disableAll(tx: Db, userId: number): Promise<void> {
    const repo = new MfaRepo(tx);
    await repo.removeAllMethods(userId);
    await repo.removeKeysAndChallenges(userId);
    await repo.deleteRecoveryCodes(userId);
    await repo.setFlags(userId, false, null);
  }

  /** Sets the default among the enabled methods; false when `method` is not enabled. */
  async setDefault(tx: Db, userId: number, method: MfaMethod): Promise<boolean> {
    const repo = new MfaRepo(tx);
    if (!(await repo.enabledMethods(userId)).includes(method)) return false;
    await repo.setFlags(userId, true, method);
    return true;
  }

  /** New recovery codes replace the old ones; returned once, stored as keyed hashes. */
  async regenerateRecoveryCodes(tx: Db, userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    await new MfaRepo(tx).replaceRecoveryCodes(
      userId,
      codes.map((code) => this.recoveryHash(code)),
    );
    return codes;
  }

  /** Spends one unused recovery code; false when it is unknown or was used. */
  useRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
    return new MfaRepo(db).spendRecoveryCode(userId, this.recoveryHash(code));
  }

  recoveryCodesLeft(db: Db, userId: number): Promise<number> {
    return new MfaRepo(db).recoveryCodesLeft(userId);
  }

  /** HMAC-SHA256 of the normalised code (lower case, no spaces or dashes): fast, keyed, not reversible. */
  recoveryHash(code: string): string {
    return createHmac('sha256', this.#recoveryKey)
      .update(code.toLowerCase().replace(/[\s-]+/g, ''), 'utf8')
      .digest('hex');
  }
}

/** `xxxxx-xxxxx` from a 31-letter alphabet: about 49 bits. */
function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}
