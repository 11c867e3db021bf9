import { PASSWORD_RESET_TOKEN_LIFETIME_HOURS, type PasswordResetInfo, type PasswordResetSent } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { hashPassword } from '#src/lib/password.js';
import { HttpProblem } from '#src/lib/problem.js';
import { SessionsRepo } from '#src/modules/auth/sessions.repo.js';
import { type EventActor, type RequestOrigin, type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { mailLocaleOf } from '#src/modules/mail/mail-locale.js';
import { type MailService, mailNotConfigured } from '#src/modules/mail/mail.service.js';
import type { LdapPasswords } from '#src/modules/ldap/sync-password.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { storeNewPassword } from './directory-password.js';
import { RedemptionLimiter } from './redemption-limiter.js';
import { type TokenUser, type UserTokenRow, UserTokensRepo } from './user-tokens.repo.js';
import { hashUserToken, isRedeemable, newUserToken, tokenInvalid } from './user-tokens.js';

const LIFETIME_MS = PASSWORD_RESET_TOKEN_LIFETIME_HOURS * 3_600_000;

/** The reset page of a token: `{base}/password-reset?token=…`. */
export const passwordResetUrl = (base: string, token: string) => new URL(`/password-reset?token=${encodeURIComponent(token)}`, base).href;

const accountActor = (user: TokenUser, origin: RequestOrigin): EventActor => ({
  type: 'user',
  userId: user.id,
  username: user.username,
  ...origin,
});

/**
 * Password reset by email (docs/enrollment.md): an administrator sends the link, or anyone asks for
 * it with an address on the login page (always answered alike, whether or not an account has that
 * address). The 1-hour token is spent when the new password is set; the account's sessions end.
 */
export class PasswordResetService {
  readonly #limiter: RedemptionLimiter;

  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    /** Where the passwords of LDAP-linked accounts are written (modules/ldap). */
    private readonly ldap?: LdapPasswords,
    limiter?: RedemptionLimiter,
  ) {
    this.#limiter = limiter ?? new RedemptionLimiter(db);
  }

  async #issue(tx: Db, user: { id: number }, createdBy: number | null) {
    const { token, hash } = newUserToken();
    const expiresAt = new Date(Date.now() + LIFETIME_MS);
    const row = await new UserTokensRepo(tx).issue({
      userId: user.id,
      purpose: 'password_reset',
      tokenHash: hash,
      expiresAt,
      createdByUserId: createdBy,
    });
    return { token, row, expiresAt };
  }

  /** `POST /user/{username}/reset_password`: mails the link now (the admin sees a refusal of the server). */
  async sendByAdmin(actor: SignedInActor, username: string, locale: string | undefined, base: string): Promise<PasswordResetSent> {
    const user = await new UsersRepo(this.db).findByUsername(username);
    if (!user) throw new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`);
    if (!user.isActive) throw new HttpProblem(400, 'auth.user_disabled', 'This user is disabled.');
    if (!(await this.mail.isConfigured())) throw mailNotConfigured();
    const { token, row, expiresAt } = await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const issued = await this.#issue(tx, user, actor.userId);
      await recordEvent(tx, {
        type: 'password_reset.requested',
        actor: userActor(actor),
        object: { type: 'user', id: user.id, name: user.username },
        subjectUserId: user.id,
        details: { username: user.username, by: 'admin' },
      });
      return issued;
    });
    try {
      await this.mail.sendNow({
        to: user.email,
        template: 'password_reset',
        locale: mailLocaleOf(user, locale),
        data: { first_name: user.firstName, url: passwordResetUrl(base, token) },
      });
    } catch (error) {
      await new UserTokensRepo(this.db).delete(row.id);
      throw error;
    }
    return { email: user.email, expires_at: expiresAt.toISOString() };
  }

  /**
   * `POST /password_reset/request`: when an active account has the address, a link is queued in
   * the same transaction (the mail job sends it), so the answer takes the same path either way and
   * says nothing. Without SMTP nothing is sent (the operator's log says so).
   */
  async request(email: string, locale: string | undefined, base: string, origin: RequestOrigin): Promise<void> {
    await this.#limiter.attempt(origin.ip, undefined);
    const user = await new UserTokensRepo(this.db).findUserByEmail(email);
    if (!user?.isActive || !(await this.mail.isConfigured())) return;
    await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const { token } = await this.#issue(tx, user, null);
      await this.mail.enqueue(tx, {
        to: user.email,
        template: 'password_reset',
        locale: mailLocaleOf(user, locale),
        data: { first_name: user.firstName, url: passwordResetUrl(base, token) },
      });
      await recordEvent(tx, {
        type: 'password_reset.requested',
        actor: accountActor(user, origin),
        object: { type: 'user', id: user.id, name: user.username },
        details: { by: 'self' },
      });
    });
  }

  async #redeem(token: string, origin: RequestOrigin): Promise<{ token: UserTokenRow; user: TokenUser }> {
    const hash = hashUserToken(token);
    await this.#limiter.attempt(origin.ip, hash);
    const found = await new UserTokensRepo(this.db).findByHash(hash);
    if (!isRedeemable(found, 'password_reset', new Date())) throw tokenInvalid('password_reset');
    return found;
  }

  /** `POST /password_reset/start`: whether the link still works (the token is not spent). */
  async check(token: string, origin: RequestOrigin): Promise<PasswordResetInfo> {
    const { token: row, user } = await this.#redeem(token, origin);
    return { username: user.username, first_name: user.firstName, expires_at: row.expiresAt.toISOString() };
  }

  /**
   * `POST /password_reset/finish`: sets the password (in LDAP for a linked account: a refusal is
   * 400 `ldap.password_refused` and the link stays usable), spends the token, ends the account's sessions.
   */
  async finish(token: string, password: string, origin: RequestOrigin): Promise<void> {
    const { token: row, user } = await this.#redeem(token, origin);
    const passwordHash = await storeNewPassword(this.ldap, user, password, hashPassword);
    await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      if (!(await new UserTokensRepo(tx).markUsed(row.id))) throw tokenInvalid('password_reset');
      await new UsersRepo(tx).update(user.id, { passwordHash });
      const ended = await new SessionsRepo(tx).deleteForUser(user.id);
      await recordEvent(tx, {
        type: 'password_reset.completed',
        actor: accountActor(user, origin),
        object: { type: 'user', id: user.id, name: user.username },
        details: { sessions_ended: ended },
      });
    });
  }
}
