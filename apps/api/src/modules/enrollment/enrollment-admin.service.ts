import type { DesktopActivation, EnrollmentStarted, StartEnrollmentBody, UserTokenPurpose } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import type { MailService } from '#src/modules/mail/mail.service.js';
import { mailLocaleOf } from '#src/modules/mail/mail-locale.js';
import { mailNotConfigured } from '#src/modules/mail/mail.service.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import { type UserRow, UsersRepo } from '#src/modules/users/users.repo.js';
import { UserTokensRepo } from './user-tokens.repo.js';
import { newUserToken } from './user-tokens.js';

const HOUR_MS = 3_600_000;

/** The enrollment page of a token: `{base}/enrollment?token=…`. */
export const enrollmentUrl = (base: string, token: string) => new URL(`/enrollment?token=${encodeURIComponent(token)}`, base).href;

/** UTC, minute precision, for mails: `2026-11-25 10:00`. */
export const mailTime = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');

const userNotFound = (username: string) => new HttpProblem(404, 'user.not_found', `User '${username}' does not exist.`);

/**
 * What an administrator starts for a user (spec §7): enrollment (emailed or handed over) and
 * desktop activation. Issuing a token revokes the user's earlier unused one of the same purpose.
 */
export class EnrollmentAdminService {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
  ) {}

  async #user(username: string): Promise<UserRow> {
    const user = await new UsersRepo(this.db).findByUsername(username);
    if (!user) throw userNotFound(username);
    return user;
  }

  async #issue(actor: SignedInActor, user: UserRow, purpose: UserTokenPurpose, details: Record<string, unknown>) {
    const { token, hash } = newUserToken();
    const settings = await new SettingsRepo(this.db).get();
    const expiresAt = new Date(Date.now() + settings.enrollmentTokenLifetimeHours * HOUR_MS);
    const row = await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const issued = await new UserTokensRepo(tx).issue({
        userId: user.id,
        purpose,
        tokenHash: hash,
        expiresAt,
        createdByUserId: actor.userId,
      });
      await recordEvent(tx, {
        type: purpose === 'desktop' ? 'enrollment.desktop_started' : 'enrollment.started',
        actor: userActor(actor),
        object: { type: 'user', id: user.id, name: user.username },
        subjectUserId: user.id,
        details: { username: user.username, expires_at: expiresAt.toISOString(), ...details },
      });
      return issued;
    });
    return { token, row, expiresAt };
  }

  /** `POST /user/{username}/start_enrollment`. */
  async startEnrollment(actor: SignedInActor, username: string, body: StartEnrollmentBody, base: string): Promise<EnrollmentStarted> {
    const user = await this.#user(username);
    if (!user.isActive)
      throw new HttpProblem(400, 'auth.user_disabled', 'This user is disabled: enable the account before starting enrollment.');
    if (user.passwordHash !== null && body.re_enroll !== true) {
      throw new HttpProblem(
        409,
        'enrollment.user_has_password',
        'This user already has a password; confirm re-enrollment (re_enroll: true).',
      );
    }
    if (body.send_email && !(await this.mail.isConfigured())) throw mailNotConfigured();
    const to = body.email ?? user.email;
    const method = body.send_email ? 'email' : 'manual';
    const { token, row, expiresAt } = await this.#issue(actor, user, 'enrollment', {
      method,
      re_enroll: user.passwordHash !== null,
      ...(body.send_email ? { email: to } : {}),
    });
    const url = enrollmentUrl(base, token);
    if (!body.send_email) return { token, url, expires_at: expiresAt.toISOString() };
    try {
      await this.mail.sendNow({
        to,
        template: 'enrollment_start',
        locale: mailLocaleOf(user, body.locale),
        data: { first_name: user.firstName, url, expires_at: mailTime(expiresAt) },
      });
    } catch (error) {
      // Not delivered: the link exists nowhere, so the token must not stay valid either.
      await new UserTokensRepo(this.db).delete(row.id);
      throw error;
    }
    return { email: to, expires_at: expiresAt.toISOString() };
  }

  /** `POST /user/{username}/start_desktop`: a one-time token a client activates with (docs/enrollment.md). */
  async startDesktop(actor: SignedInActor, username: string, base: string): Promise<DesktopActivation> {
    const user = await this.#user(username);
    if (!user.isActive) throw new HttpProblem(400, 'auth.user_disabled', 'This user is disabled.');
    const { token, expiresAt } = await this.#issue(actor, user, 'desktop', {});
    return { token, url: new URL('/', base).href, expires_at: expiresAt.toISOString() };
  }
}
