import type { SecurityKey, WebauthnFinishBody, WebauthnOptions } from '@palisade/contracts';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import type { MfaCore, PendingUser } from '#src/modules/mfa/mfa.core.js';
import { userObject } from '#src/modules/users/users.events.js';
import { type KeyRow, WebauthnRepo } from './webauthn.repo.js';

/** A WebAuthn challenge is answered within 5 minutes, once. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const KEY_UNREADABLE = 'Failed to read key. Please try again.';

/** The relying party: its ID is the host name of the console's origin (PUBLIC_URL). */
export interface RelyingParty {
  id: string;
  origin: string;
}

const unreadable = () => new HttpProblem(400, 'mfa.key_unreadable', KEY_UNREADABLE);

export const toSecurityKey = (k: KeyRow): SecurityKey => ({
  id: k.id,
  name: k.name,
  created_at: k.createdAt.toISOString(),
  ...(k.lastUsedAt ? { last_used_at: k.lastUsedAt.toISOString() } : {}),
});

/** Security keys: registration (enables the `webauthn` method), the sign-in step, list and delete. */
export class WebauthnService {
  readonly #repo: WebauthnRepo;

  constructor(
    private readonly db: Db,
    private readonly mfa: MfaCore,
  ) {
    this.#repo = new WebauthnRepo(db);
  }

  async registrationOptions(actor: SignedInActor, rp: RelyingParty): Promise<WebauthnOptions> {
    const keys = await this.#repo.keysOf(actor.userId);
    const options = await generateRegistrationOptions({
      rpName: 'Palisade',
      rpID: rp.id,
      userName: actor.username,
      userID: new TextEncoder().encode(`palisade-user-${actor.userId}`),
      attestationType: 'none',
      excludeCredentials: keys.map((k) => ({ id: k.credentialId, transports: k.transports as never })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await this.#repo.storeChallenge(actor.userId, 'webauthn_register', options.challenge, WEBAUTHN_CHALLENGE_TTL_MS);
    return options as unknown as WebauthnOptions;
  }

  async finishRegistration(
    actor: SignedInActor,
    body: WebauthnFinishBody,
    rp: RelyingParty,
  ): Promise<{ key: SecurityKey; recovery_codes?: string[] }> {
    const challenge = await this.#repo.takeChallenge(actor.userId, 'webauthn_register');
    if (!challenge) throw unreadable();
    const verified = await verifyRegistrationResponse({
      response: body.response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    }).catch(() => undefined);
    if (!verified?.verified || !verified.registrationInfo) throw unreadable();
    const credential = verified.registrationInfo.credential;
    return this.db.transaction(async (tx) => {
      const row = await new WebauthnRepo(tx).insertKey({
        userId: actor.userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: body.name,
      });
      if (!row) throw new HttpProblem(409, 'mfa.key_registered', 'Key is already registered');
      const enabled = await this.mfa.enableMethod(tx, actor.userId, 'webauthn');
      await recordEvent(tx, {
        type: 'mfa.security_key_added',
        actor: userActor(actor),
        object: userObject({ id: actor.userId, username: actor.username }),
        details: { key_id: row.id, name: row.name },
      });
      return { key: toSecurityKey(row), ...(enabled.recoveryCodes ? { recovery_codes: enabled.recoveryCodes } : {}) };
    });
  }

  async authenticationOptions(pending: PendingUser, rp: RelyingParty): Promise<WebauthnOptions> {
    const options = await this.assertionOptions(pending.userId, rp);
    await this.#repo.storeChallenge(pending.userId, 'webauthn_login', options.challenge, WEBAUTHN_CHALLENGE_TTL_MS);
    return options as unknown as WebauthnOptions;
  }

  /**
   * The sign-in check (run by `verifyPendingStep`): the challenge is spent whatever the outcome;
   * the key must be the user's, the signature valid and the sign counter higher than the last one
   * (a cloned key shows up as a counter that does not grow).
   */
  async checkAssertion(pending: PendingUser, response: unknown, rp: RelyingParty): Promise<boolean> {
    const challenge = await this.#repo.takeChallenge(pending.userId, 'webauthn_login');
    if (!challenge) return false;
    return this.verifyAssertion(pending.userId, response, challenge, rp);
  }

  /**
   * Assertion options for a check outside the sign-in (a VPN session's MFA): the caller keeps
   * `challenge` with what it guards and passes it back to `verifyAssertion`.
   */
  async assertionOptions(userId: number, rp: RelyingParty): Promise<WebauthnOptions> {
    const keys = await this.#repo.keysOf(userId);
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: keys.map((k) => ({ id: k.credentialId, transports: k.transports as never })),
      userVerification: 'preferred',
    });
    return options as unknown as WebauthnOptions;
  }

  /**
   * Whether `response` is a valid assertion of one of the user's keys over `challenge`; moves its
   * sign counter on. A caller inside a transaction passes it as `db`: on the embedded database
   * (PGlite, one connection) a statement outside the open transaction would wait for it forever.
   */
  async verifyAssertion(userId: number, response: unknown, challenge: string, rp: RelyingParty, db: Db = this.db): Promise<boolean> {
    const repo = new WebauthnRepo(db);
    const assertion = response as AuthenticationResponseJSON;
    const key = await repo.keyOf(userId, assertion.id);
    if (!key) return false;
    const verified = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.credentialId,
        publicKey: Buffer.from(key.publicKey, 'base64url'),
        counter: key.counter,
        transports: key.transports as never,
      },
      requireUserVerification: false,
    }).catch(() => undefined);
    if (!verified?.verified) return false;
    return repo.advanceCounter(key, verified.authenticationInfo.newCounter);
  }

  async list(username: string): Promise<SecurityKey[]> {
    const user = await this.userByName(username);
    return (await this.#repo.keysOf(user.id)).map(toSecurityKey);
  }

  /** Deletes one of the user's keys; the last one gone disables the `webauthn` method. */
  async remove(actor: SignedInActor, username: string, keyId: number): Promise<void> {
    const user = await this.userByName(username);
    await this.db.transaction(async (tx) => {
      const repo = new WebauthnRepo(tx);
      const row = await repo.deleteKey(user.id, keyId);
      if (!row) throw new HttpProblem(404, 'security_key.not_found', 'Security key not found');
      if (!(await repo.hasKeys(user.id))) await this.mfa.disableMethod(tx, user.id, 'webauthn');
      await recordEvent(tx, {
        type: 'mfa.security_key_removed',
        actor: userActor(actor),
        object: userObject(user),
        subjectUserId: user.id,
        details: { key_id: row.id, name: row.name },
      });
    });
  }

  private async userByName(username: string): Promise<{ id: number; username: string }> {
    const user = await this.#repo.userByName(username);
    if (!user) throw new HttpProblem(404, 'user.not_found', 'User not found');
    return user;
  }
}

/** RP ID and origin from PUBLIC_URL; without it, from the request's own origin. */
export function relyingPartyOf(publicUrl: string | undefined, requestOrigin: string): RelyingParty {
  const url = new URL(publicUrl ?? requestOrigin);
  return { id: url.hostname, origin: url.origin };
}
