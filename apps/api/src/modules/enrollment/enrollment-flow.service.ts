import type { CreatedDevice, EnrollmentFinished, EnrollmentSession } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { hashPassword } from '#src/lib/password.js';
import { HttpProblem } from '#src/lib/problem.js';
import { SessionsRepo } from '#src/modules/auth/sessions.repo.js';
import { DevicesRepo } from '#src/modules/devices/devices.repo.js';
import type { DevicesService } from '#src/modules/devices/devices.service.js';
import type { EventActor, RequestOrigin } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { mailLocaleOf } from '#src/modules/mail/mail-locale.js';
import type { MailService } from '#src/modules/mail/mail.service.js';
import { NetworksRepo } from '#src/modules/networks/networks.repo.js';
import { SettingsRepo } from '#src/modules/settings/settings.repo.js';
import type { LdapPasswords } from '#src/modules/ldap/sync-password.js';
import { UsersRepo } from '#src/modules/users/users.repo.js';
import { storeNewPassword } from './directory-password.js';
import { RedemptionLimiter } from './redemption-limiter.js';
import { type TokenUser, type UserTokenRow, UserTokensRepo } from './user-tokens.repo.js';
import { hashUserToken, isRedeemable, tokenInvalid } from './user-tokens.js';
import { welcomeEmailHtml, welcomeEmailSource, welcomeEmailSubject } from './welcome-mail.js';

interface Redeemed {
  token: UserTokenRow;
  user: TokenUser;
}

/** The VPN step is mandatory only when the settings say so and the WireGuard module is on. */
const vpnStepOptional = (settings: { enrollmentVpnStepOptional: boolean; wireguardEnabled: boolean }) =>
  settings.enrollmentVpnStepOptional || !settings.wireguardEnabled;

/** The enrolling person as the activity log names them (the token is their credential). */
const enrolleeActor = (user: TokenUser, origin: RequestOrigin): EventActor => ({
  type: 'user',
  userId: user.id,
  username: user.username,
  ...origin,
});

/**
 * The public enrollment flow (docs/enrollment.md). The enrollment token is the credential of every
 * step: `start` checks it and the routes keep it in a short-lived cookie of their own (not a
 * console session); the token is spent by `finish`. Every step counts against the redemption
 * limits (per address and per token).
 */
export class EnrollmentFlowService {
  readonly #limiter: RedemptionLimiter;

  constructor(
    private readonly db: Db,
    private readonly devices: DevicesService,
    private readonly mail: MailService,
    /** Where the passwords of LDAP-linked accounts are written (modules/ldap). */
    private readonly ldap?: LdapPasswords,
    limiter?: RedemptionLimiter,
  ) {
    this.#limiter = limiter ?? new RedemptionLimiter(db);
  }

  /** A live enrollment token (from the body or the flow's cookie), or 400 `enrollment.token_invalid`. */
  async redeem(token: string | undefined, origin: RequestOrigin): Promise<Redeemed> {
    const hash = token ? hashUserToken(token) : undefined;
    await this.#limiter.attempt(origin.ip, hash);
    const found = hash === undefined ? undefined : await new UserTokensRepo(this.db).findByHash(hash);
    if (!isRedeemable(found, 'enrollment', new Date())) throw tokenInvalid('enrollment');
    return found;
  }

  /** Opens the flow with the link's token: recorded, so the activity log shows where a link was used. */
  async open(token: string, origin: RequestOrigin): Promise<Redeemed> {
    const redeemed = await this.redeem(token, origin);
    const { user } = redeemed;
    await recordEvent(this.db, {
      type: 'enrollment.opened',
      actor: enrolleeActor(user, origin),
      object: { type: 'user', id: user.id, name: user.username },
      details: { expires_at: redeemed.token.expiresAt.toISOString() },
    });
    return redeemed;
  }

  async session({ token, user }: Redeemed): Promise<EnrollmentSession> {
    const settings = await new SettingsRepo(this.db).get();
    const networks = new NetworksRepo(this.db);
    const locations = [];
    for (const id of (await networks.locationIdsForUser(user.id)).sort((a, b) => a - b)) {
      const location = await networks.findById(id);
      if (location) locations.push({ id: location.id, name: location.name });
    }
    return {
      user: { username: user.username, first_name: user.firstName, last_name: user.lastName, email: user.email },
      welcome_message: settings.enrollmentWelcomeMessage,
      vpn_step_optional: vpnStepOptional(settings),
      password_set: await this.#passwordSet(token, user),
      devices_added: await this.#devicesAdded(token, user),
      locations,
      expires_at: token.expiresAt.toISOString(),
    };
  }

  /**
   * A local account has a password hash; a linked account's password is in LDAP, so what counts is
   * that this enrollment set it (its `enrollment.password_set` since the token was issued).
   */
  async #passwordSet(token: UserTokenRow, user: TokenUser): Promise<boolean> {
    if (user.passwordHash !== null) return true;
    if (user.ldapDn === null) return false;
    return new UserTokensRepo(this.db).passwordSetSince(user.id, token.createdAt);
  }

  async #devicesAdded(token: UserTokenRow, user: TokenUser): Promise<number> {
    const devices = await new DevicesRepo(this.db).listUserDevicesOf(user.id);
    return devices.filter((d) => d.createdAt.getTime() >= token.createdAt.getTime()).length;
  }

  /**
   * Sets the person's password (in LDAP for a linked account: a refusal is 400
   * `ldap.password_refused`); console sessions of the account (a re-enrollment) end.
   */
  async setPassword({ user }: Redeemed, password: string, origin: RequestOrigin): Promise<void> {
    const passwordHash = await storeNewPassword(this.ldap, user, password, hashPassword);
    await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      await new UsersRepo(tx).update(user.id, { passwordHash });
      const ended = await new SessionsRepo(tx).deleteForUser(user.id);
      await recordEvent(tx, {
        type: 'enrollment.password_set',
        actor: enrolleeActor(user, origin),
        object: { type: 'user', id: user.id, name: user.username },
        details: { sessions_ended: ended },
      });
    });
  }

  /** Adds a device exactly as the owner would (`POST /device/{username}`), the person acting. */
  async addDevice({ user }: Redeemed, body: { name: string; wireguard_pubkey: string }, origin: RequestOrigin): Promise<CreatedDevice> {
    return this.devices.create({ userId: user.id, username: user.username, isAdmin: false, ...origin }, user.username, body);
  }

  /**
   * Ends the flow: refuses without a password, and without a device while the VPN step is
   * mandatory; spends the token, marks the account enrolled, then sends the welcome email (when
   * mail is configured and there is something to say; a failure does not undo the enrollment).
   */
  async finish({ token, user }: Redeemed, locale: string | undefined, origin: RequestOrigin): Promise<EnrollmentFinished> {
    const settings = await new SettingsRepo(this.db).get();
    if (!(await this.#passwordSet(token, user))) {
      throw new HttpProblem(409, 'enrollment.password_required', 'Set a password before finishing enrollment.');
    }
    if (!vpnStepOptional(settings) && (await this.#devicesAdded(token, user)) === 0) {
      throw new HttpProblem(409, 'enrollment.device_required', 'Add a VPN device before finishing enrollment.');
    }
    await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      if (!(await new UserTokensRepo(tx).markUsed(token.id))) throw tokenInvalid('enrollment');
      await new UsersRepo(tx).update(user.id, { enrolled: true });
      await recordEvent(tx, {
        type: 'enrollment.completed',
        actor: enrolleeActor(user, origin),
        object: { type: 'user', id: user.id, name: user.username },
        details: {},
      });
    });
    return { username: user.username, welcome_email_sent: await this.#sendWelcome(user, settings, mailLocaleOf(user, locale)) };
  }

  async #sendWelcome(user: TokenUser, settings: Awaited<ReturnType<SettingsRepo['get']>>, locale: string): Promise<boolean> {
    const source = welcomeEmailSource(settings);
    if (source.trim() === '' || !(await this.mail.isConfigured())) return false;
    try {
      await this.mail.sendNow({
        to: user.email,
        template: 'enrollment_welcome',
        locale,
        data: {
          subject: welcomeEmailSubject(settings.enrollmentWelcomeEmailSubject, locale, settings.instanceName),
          body: source,
          body_html: welcomeEmailHtml(source, locale),
        },
      });
      return true;
    } catch {
      return false;
    }
  }
}
