import { randomBytes } from 'node:crypto';
import type { VpnSession, VpnSessionChallenge, VpnSessionFinishBody, VpnSessionStartBody } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { randomToken, type SecretBox, sha256 } from '#src/lib/crypto.js';
import { fieldProblem, HttpProblem } from '#src/lib/problem.js';
import { type EventActor, userActor } from '#src/modules/events/event-actor.js';
import { type DomainEvent, recordEvent } from '#src/modules/events/record-event.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { type SessionRow, VpnSessionsRepo } from './vpn-sessions.repo.js';

/** How long a challenge of `start` may be finished. */
export const VPN_CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * The owner's second factor for a session: whether `code` is a valid, unused code of the user's
 * TOTP (a valid code is spent). Given by the MFA module.
 */
export type CodeCheck = (db: Db, userId: number, code: string) => Promise<boolean>;
/** Whether the user has a second factor the session can be finished with. */
export type HasCodeMethod = (db: Db, userId: number) => Promise<boolean>;

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
 * VPN sessions of MFA-protected locations (docs/mfa.md): a device's peer is on such a location's
 * gateways only while its owner has an active session, started by passing their MFA, with a fresh
 * preshared key delivered once.
 */
export class VpnSessionsService {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly check: CodeCheck,
    private readonly hasMethod: HasCodeMethod,
  ) {}

  async start(actor: Actor, body: VpnSessionStartBody): Promise<VpnSessionChallenge> {
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
    if (!(await this.hasMethod(this.db, actor.userId))) {
      throw new HttpProblem(400, 'vpn_session.mfa_not_enabled', 'Set up an authenticator app first: the session is started with its code.');
    }
    if (body.method !== undefined && body.method !== 'totp') {
      throw new HttpProblem(400, 'vpn_session.method_not_enabled', 'This two-factor method is not enabled for your account.', [
        { path: 'method', code: 'invalid', message: 'Invalid value' },
      ]);
    }
    const challenge = randomToken();
    const expiresAt = new Date(Date.now() + VPN_CHALLENGE_TTL_MS);
    await repo.insertPending({
      userId: actor.userId,
      deviceId: target.device_id,
      locationId: target.location_id,
      challengeHash: sha256(challenge),
      expiresAt,
    });
    return { challenge, expires_at: expiresAt.toISOString(), method: 'totp', methods: ['totp'] };
  }

  async finish(actor: Actor, body: VpnSessionFinishBody) {
    const code = body.code;
    if (code === undefined) throw fieldProblem('code', 'required', 'Field required');
    const presharedKey = randomBytes(32).toString('base64');
    const started = await tx(this.db, async (t) => {
      const repo = new VpnSessionsRepo(t);
      const pending = await repo.takeChallenge(actor.userId, sha256(body.challenge));
      if (!pending) throw new HttpProblem(400, 'vpn_session.challenge_invalid', 'The challenge is unknown or expired; start again.');
      if (!(await this.check(t, actor.userId, code))) return undefined;
      // A device has one session per location: a new MFA replaces the previous session's key.
      const replaced = await repo.endActive(pending.device_id, pending.location_id, 'replaced');
      await repo.start(pending.id, this.secrets.encrypt(presharedKey));
      const row = await repo.get(pending.id);
      if (!row) throw notFound(pending.id);
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
        details: { session_id: row.id, mfa_method: 'totp' },
      });
      await recordEvent(t, ...events);
      return row;
    });
    if (!started) throw new HttpProblem(400, 'auth.invalid_code', 'Code is invalid');
    return { session: toVpnSession(started), preshared_key: presharedKey };
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
