import { randomBytes } from 'node:crypto';
import type { VpnSession, VpnSessionChallenge, VpnSessionFinishBody, VpnSessionStartBody, WebauthnOptions } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { randomToken, type SecretBox, sha256 } from '#src/lib/crypto.js';
import { fieldProblem, HttpProblem } from '#src/lib/problem.js';
import { type EventActor, userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import type { EmailCodeService } from '#src/modules/mfa/email/email-code.service.js';
import { enabledMethods, type MfaCore, type MfaMethod } from '#src/modules/mfa/mfa.core.js';
import { MfaRepo } from '#src/modules/mfa/mfa.repo.js';
import type { TotpService } from '#src/modules/mfa/totp.service.js';
import type { RelyingParty, WebauthnService } from '#src/modules/mfa/webauthn/webauthn.service.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { type PendingChallenge, type SessionRow, VpnSessionsRepo } from './vpn-sessions.repo.js';

/** How long a challenge of `start` may be finished. */
export const VPN_CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The second factors a session is finished with (the MFA module's services). */
export interface VpnSecondFactors {
  core: MfaCore;
  totp: TotpService;
  email: EmailCodeService;
  webauthn: WebauthnService;
}

const challengeInvalid = () => new HttpProblem(400, 'vpn_session.challenge_invalid', 'The challenge is unknown or expired; start again.');
const notFound = (id: number) => new HttpProblem(404, 'vpn_session.not_found', `VPN session ${id} does not exist.`);
const tx = <T>(db: Db, fn: (t: Db) => Promise<T>) => db.transaction((t) => fn(t as unknown as Db));

export function toVpnSession(row: SessionRow): VpnSession {
  return {
    id: row.id,
    device_id: row.device_id,
    device_name: row.device_name,
    location_id: row.location_id,
    location_name: row.location_name,
    started_at: new Date(row.started_at).toISOString(),
    last_handshake: row.last_handshake ? new Date(row.last_handshake).toISOString() : null,
    ended_at: row.ended_at ? new Date(row.ended_at).toISOString() : null,
    end_reason: (row.end_reason as VpnSession['end_reason']) ?? null,
  };
}

export function sessionEndedEvent(actor: EventActor, row: SessionRow, reason: string): DomainEvent {
  return {
    type: 'vpn_session.ended',
    actor,
    object: { type: 'location', id: row.location_id, name: row.location_name },
    device: { id: row.device_id, name: row.device_name },
    subjectUserId: row.user_id,
    details: { session_id: row.id, reason },
  };
}

/**
 * Ends the user's active sessions because the second factor that authorised them was removed
 * (`DELETE /auth/mfa`, an admin's MFA reset), in the caller's transaction; the events to record.
 */
export async function endSessionsForMfaRemoval(tx: Db, actor: EventActor, userId: number): Promise<DomainEvent[]> {
  const ended = await new VpnSessionsRepo(tx).endForUser(userId, 'mfa_reset');
  return ended.map((row) => sessionEndedEvent(actor, row, 'mfa_reset'));
}

/**
 * VPN sessions of MFA-protected locations (docs/mfa.md): a device's peer is on such a location's
 * gateways only while its owner has an active session, started by passing their MFA, with a fresh
 * preshared key delivered once.
 */
export class VpnSessionsService {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly factors: VpnSecondFactors,
  ) {}

  /**
   * A challenge for the owner's second factor: `body.method`, or the user's default, or the first
   * enabled method. `email` mails a code now (30 s resend limit); `webauthn` answers assertion options.
   */
  async start(actor: Actor, body: VpnSessionStartBody, rp: RelyingParty): Promise<VpnSessionChallenge> {
    const repo = new VpnSessionsRepo(this.db);
    const target = await repo.target(actor.userId, body.location_id, body.device_pubkey);
    if (!target) {
      throw new HttpProblem(404, 'device.not_found', 'You have no device with this public key in this location.');
    }
    if (!target.mfa_enabled) {
      throw new HttpProblem(
        400,
        'vpn_session.location_not_mfa',
        'The location is not MFA-protected; the device connects without a session.',
      );
    }
    const methods = await enabledMethods(this.db, actor.userId);
    if (methods.length === 0) {
      throw new HttpProblem(
        400,
        'vpn_session.mfa_not_enabled',
        'Set up two-factor authentication first: an authenticator app, email codes or a security key open MFA-protected locations.',
      );
    }
    const method = body.method ?? (await this.defaultOf(actor.userId, methods));
    if (!methods.includes(method)) {
      throw new HttpProblem(400, 'vpn_session.method_not_enabled', 'This two-factor method is not enabled for your account.', [
        { path: 'method', code: 'invalid', message: 'Invalid value' },
      ]);
    }
    const challenge = randomToken();
    const challengeHash = sha256(challenge);
    let webauthn: WebauthnOptions | undefined;
    // The code goes out first: a refused send (SMTP not configured, the resend limit) leaves no challenge.
    if (method === 'email') await this.factors.email.sendVpnSessionCode(actor.userId, challengeHash);
    if (method === 'webauthn') webauthn = await this.factors.webauthn.assertionOptions(actor.userId, rp);
    const expiresAt = new Date(Date.now() + VPN_CHALLENGE_TTL_MS);
    await repo.insertPending({
      userId: actor.userId,
      deviceId: target.device_id,
      locationId: target.location_id,
      challengeHash,
      expiresAt,
      method,
      webauthnChallenge: webauthn?.challenge ?? null,
    });
    return { challenge, expires_at: expiresAt.toISOString(), method, methods, ...(webauthn ? { webauthn } : {}) };
  }

  /**
   * Checks the answer to a challenge with its method (under the sign-in lockout) and starts the
   * session: the device peer goes to the location gateways with a fresh preshared key, returned
   * this once. A wrong answer leaves the challenge pending, to be tried again until it expires.
   */
  async finish(actor: Actor, body: VpnSessionFinishBody, rp: RelyingParty) {
    const challengeHash = sha256(body.challenge);
    const pending = await new VpnSessionsRepo(this.db).pendingChallenge(actor.userId, challengeHash);
    if (!pending) throw challengeInvalid();
    if (pending.mfa_method === 'webauthn' ? body.credential === undefined : body.code === undefined) {
      const field = pending.mfa_method === 'webauthn' ? 'credential' : 'code';
      throw fieldProblem(field, 'required', 'Field required');
    }
    const presharedKey = randomBytes(32).toString('base64');
    const started = await this.factors.core.guardedCheck(actor, pending.mfa_method, 'vpn_session', () =>
      tx(this.db, async (t) => {
        const repo = new VpnSessionsRepo(t);
        const locked = await repo.pendingChallenge(actor.userId, challengeHash, true);
        if (!locked) throw challengeInvalid();
        if (!(await this.passes(t, actor.userId, locked, challengeHash, body, rp))) return undefined;
        // A device has one session per location: a new MFA replaces the previous session's key.
        const replaced = await repo.endActive(locked.device_id, locked.location_id, 'replaced');
        await repo.start(locked.id, this.secrets.encrypt(presharedKey));
        const row = await repo.get(locked.id);
        if (!row) throw notFound(locked.id);
        const by = userActor(actor);
        const events: DomainEvent[] = [];
        for (const id of replaced) {
          const old = await repo.get(id);
          if (old) events.push(sessionEndedEvent(by, old, 'replaced'));
        }
        events.push({
          type: 'vpn_session.started',
          actor: by,
          object: { type: 'location', id: row.location_id, name: row.location_name },
          device: { id: row.device_id, name: row.device_name },
          details: { session_id: row.id, mfa_method: locked.mfa_method },
        });
        await recordEvent(t, ...events);
        return row;
      }),
    );
    return { session: toVpnSession(started), preshared_key: presharedKey };
  }

  /** Whether the answer passes the challenge's method (a right code or assertion is spent). */
  private async passes(
    t: Db,
    userId: number,
    pending: PendingChallenge,
    challengeHash: string,
    body: VpnSessionFinishBody,
    rp: RelyingParty,
  ): Promise<boolean> {
    const { totp, email, webauthn } = this.factors;
    switch (pending.mfa_method) {
      case 'totp':
        return totp.check(t, userId, body.code ?? '');
      case 'email':
        return email.spendVpnSessionCode(t, userId, challengeHash, body.code ?? '');
      case 'webauthn':
        return pending.webauthn_challenge !== null && webauthn.verifyAssertion(userId, body.credential, pending.webauthn_challenge, rp, t);
    }
  }

  private async defaultOf(userId: number, methods: MfaMethod[]): Promise<MfaMethod> {
    const current = await new MfaRepo(this.db).defaultMethod(userId);
    return methods.find((m) => m === current) ?? (methods[0] as MfaMethod);
  }

  async list(actor: Actor): Promise<VpnSession[]> {
    return (await new VpnSessionsRepo(this.db).listForUser(actor.userId)).map(toVpnSession);
  }

  /** Disconnects a session of the caller (admins: anyone's). */
  async end(actor: Actor, id: number): Promise<void> {
    await tx(this.db, async (t) => {
      const repo = new VpnSessionsRepo(t);
      const row = await repo.get(id);
      if (!row || (row.user_id !== actor.userId && !actor.isAdmin)) throw notFound(id);
      const ended = await repo.end(id, 'disconnected');
      if (ended) await recordEvent(t, sessionEndedEvent(userActor(actor), ended, 'disconnected'));
    });
  }
}
