import { createHmac, randomInt } from 'node:crypto';
import type { MfaEnabled } from '@palisade/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { mailLocaleOf } from '#src/modules/mail/mail-locale.js';
import type { MailService } from '#src/modules/mail/mail.service.js';
import { enabledMethods, type MfaCore } from '#src/modules/mfa/mfa.core.js';
import { type ChallengePurpose, WebauthnRepo as ChallengeRepo } from '#src/modules/mfa/webauthn/webauthn.repo.js';
import { userObject } from '#src/modules/users/users.events.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { EmailCodeRepo } from './email-code.repo.js';

/** An emailed code is valid 10 minutes, once; a new one is sent at most every 30 seconds. */
export const EMAIL_CODE_TTL_MS = 10 * 60 * 1000;
export const EMAIL_RESEND_MS = 30 * 1000;
export const RESEND_TOO_SOON = 'A code was sent less than 30 seconds ago. Wait a moment before asking for another one.';

type EmailPurpose = Extract<ChallengePurpose, 'email_enable' | 'email_login' | 'vpn_email'>;

/**
 * Email codes (issue 10 §2 Email): 6 digits, sent by the mail service, stored as an HMAC-SHA256
 * under a key derived from the instance secret (fast, keyed), spent by the first right answer.
 */
export class EmailCodeService {
  readonly #key: Buffer;

  constructor(
    private readonly db: Db,
    secrets: SecretBox,
    private readonly mfa: MfaCore,
    private readonly mail: MailService,
  ) {
    this.#key = secrets.deriveKey('mfa-email-codes');
  }

  /** Sends a code to enable the method. */
  async sendEnableCode(actor: Actor): Promise<void> {
    if ((await enabledMethods(this.db, actor.userId)).includes('email')) {
      throw new HttpProblem(409, 'mfa.method_enabled', 'Email codes are already enabled.');
    }
    await this.#send(actor.userId, 'email_enable');
  }

  /** Enables the method with the mailed code; a wrong code counts against the sign-in lockout. */
  async enable(actor: Actor, code: string): Promise<MfaEnabled> {
    return this.mfa.guardedCheck(actor, 'email', 'email_enable', () =>
      this.db.transaction(async (tx) => {
        if (!(await this.#spend(tx, actor.userId, 'email_enable', code))) return undefined;
        const { recoveryCodes } = await this.mfa.enableMethod(tx, actor.userId, 'email');
        await recordEvent(tx, {
          type: 'mfa.method_enabled',
          actor: userActor(actor),
          object: userObject({ id: actor.userId, username: actor.username }),
          details: { method: 'email', ...(recoveryCodes ? { recovery_codes_generated: true } : {}) },
        });
        return recoveryCodes ? { recovery_codes: recoveryCodes } : {};
      }),
    );
  }

  /**
   * Mails a code for a VPN session's MFA (issue 10 §4), bound to that session's challenge (`binding`):
   * one such code per user, a new one replacing the last, at most every 30 seconds.
   */
  async sendVpnSessionCode(userId: number, binding: string): Promise<void> {
    await this.#send(userId, 'vpn_email', `vpn_email:${binding}`);
  }

  /** Spends the VPN session code when it is right for that challenge and has not expired. */
  spendVpnSessionCode(db: Db, userId: number, binding: string, code: string): Promise<boolean> {
    return new EmailCodeRepo(db).spend(userId, 'vpn_email', this.#hash(userId, `vpn_email:${binding}`, code));
  }

  /** Sends a sign-in code to the pending-MFA user (who must have the method enabled). */
  async sendSignInCode(request: FastifyRequest): Promise<void> {
    const pending = this.mfa.pendingUser(request);
    if (!(await enabledMethods(this.db, pending.userId)).includes('email')) {
      throw new HttpProblem(400, 'mfa.method_not_enabled', 'Email codes are not enabled for this account.');
    }
    await this.#send(pending.userId, 'email_login');
  }

  verify(request: FastifyRequest, reply: FastifyReply, code: string) {
    return this.mfa.verifyPendingStep(request, reply, 'email', (pending) => this.#spend(this.db, pending.userId, 'email_login', code));
  }

  async disable(actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await enabledMethods(tx, actor.userId)).includes('email')) return;
      await this.mfa.disableMethod(tx, actor.userId, 'email');
      await recordEvent(tx, {
        type: 'mfa.method_disabled',
        actor: userActor(actor),
        object: userObject({ id: actor.userId, username: actor.username }),
        details: { method: 'email' },
      });
    });
  }

  /** `scope` keys the code's hash (the purpose, or the purpose and what the code is bound to). */
  async #send(userId: number, purpose: EmailPurpose, scope: string = purpose): Promise<void> {
    if (!(await this.mail.isConfigured())) {
      throw new HttpProblem(400, 'mail.not_configured', 'Email codes need outgoing mail: an administrator must configure SMTP first.');
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const { email: to, locale } = await this.db.transaction(async (tx) => {
      const repo = new EmailCodeRepo(tx);
      const user = await repo.lockUser(userId);
      if (!user) throw new HttpProblem(401, 'auth.unauthenticated', 'You need to sign in.');
      const last = await repo.sentAt(userId, purpose);
      if (last && Date.now() - last.getTime() < EMAIL_RESEND_MS) throw new HttpProblem(429, 'mfa.email_too_soon', RESEND_TOO_SOON);
      await new ChallengeRepo(tx).storeChallenge(userId, purpose, this.#hash(userId, scope, code), EMAIL_CODE_TTL_MS);
      return { email: user.email, locale: mailLocaleOf(user) };
    });
    // Sent now, not queued: the user is waiting for it, and a refusing server is reported at once
    // ('Error sending email' with its reason). A code that was not sent is dropped, so no resend wait.
    try {
      await this.mail.sendNow({ to, template: 'mfa_email_code', locale, data: { code } });
    } catch (err) {
      await new EmailCodeRepo(this.db).drop(userId, purpose);
      throw err;
    }
  }

  #spend(db: Db, userId: number, purpose: EmailPurpose, code: string): Promise<boolean> {
    return new EmailCodeRepo(db).spend(userId, purpose, this.#hash(userId, purpose, code));
  }

  #hash(userId: number, scope: string, code: string): string {
    return createHmac('sha256', this.#key).update(`${userId}:${scope}:${code}`).digest('hex');
  }
}
