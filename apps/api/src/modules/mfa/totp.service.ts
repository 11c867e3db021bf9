import type { MfaEnabled, TotpInit } from '@palisade/contracts';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type CryptoPlugin, generateSecret, generateURI, verifySync } from 'otplib';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { withEvents } from '#src/modules/events/record-event.js';
import { userObject } from '#src/modules/users/users.events.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { enabledMethods, type MfaCore, type PendingStepUser, type TotpStepPass } from './mfa.core.js';
import { TotpRepo } from './totp.repo.js';

/** Codes of the previous, current and next 30-second step are accepted (±1 step). */
const PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = PERIOD_SECONDS;

/**
 * The codes' HMAC-SHA1 through Node's OpenSSL binding: otplib's default plugin computes it in
 * JavaScript (@noble/hashes), which was about a twentieth of the sign-in step's CPU in the
 * process (bench/totp.ts profile); OpenSSL makes it noise.
 */
const NODE_CRYPTO: CryptoPlugin = {
  name: 'node',
  algorithms: ['sha1', 'sha256', 'sha512'],
  hmac: (algorithm, key, data) => createHmac(algorithm, key).update(data).digest(),
  randomBytes: (length) => randomBytes(length),
  constantTimeEqual: (a, b) => {
    const x = typeof a === 'string' ? Buffer.from(a) : a;
    const y = typeof b === 'string' ? Buffer.from(b) : b;
    return x.length === y.length && timingSafeEqual(x, y);
  },
};

/**
 * TOTP (RFC 6238, 6 digits, 30 s, SHA-1: what authenticator apps expect). The secret is sealed at
 * rest; the last accepted time step is stored, and a code of that step or an earlier one is
 * refused (replay). A check costs one row read, an AES-GCM open and three HMAC-SHA1s.
 */
export class TotpService {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly core: MfaCore,
    private readonly instanceName: () => Promise<string>,
  ) {}

  /** A new secret (not enabled until `enable` gets a first valid code) and its otpauth:// URI. */
  async init(actor: Actor): Promise<TotpInit> {
    if ((await enabledMethods(this.db, actor.userId)).includes('totp')) {
      throw new HttpProblem(409, 'mfa.method_enabled', 'The authenticator app is already enabled. Disable it first to set up a new one.');
    }
    const secret = generateSecret();
    await new TotpRepo(this.db).put(actor.userId, this.secrets.encrypt(secret));
    return { secret, uri: generateURI({ issuer: await this.instanceName(), label: actor.username, secret }) };
  }

  /**
   * Enables TOTP with a first valid code; the first method of the user also returns recovery codes.
   * A wrong code counts against the sign-in lockout (`MfaCore.guardedCheck`).
   */
  async enable(actor: Actor, code: string): Promise<MfaEnabled> {
    return this.core.guardedCheck(actor, 'totp', 'totp_enable', () =>
      withEvents(this.db, async (tx) => {
        if ((await enabledMethods(tx, actor.userId)).includes('totp')) {
          throw new HttpProblem(409, 'mfa.method_enabled', 'The authenticator app is already enabled.');
        }
        const record = await new TotpRepo(tx).get(actor.userId);
        if (!record) throw new HttpProblem(400, 'mfa.totp_not_initialized', 'Start the authenticator app setup first.');
        if (!(await this.#accept(tx, actor.userId, record.secret, record.lastStep, code))) return { result: undefined, events: [] };
        const { recoveryCodes } = await this.core.enableMethod(tx, actor.userId, 'totp');
        return {
          result: recoveryCodes ? { recovery_codes: recoveryCodes } : {},
          events: [
            {
              type: 'mfa.method_enabled',
              actor: userActor(actor),
              object: userObject({ id: actor.userId, username: actor.username }),
              details: { method: 'totp', ...(recoveryCodes ? { recovery_codes_generated: true } : {}) },
            },
          ],
        };
      }),
    );
  }

  /**
   * Whether `code` is a valid, not yet used code of the user's enabled TOTP; a valid code is
   * spent (its step recorded). For the sign-in step, turning MFA off and MFA-protected locations.
   */
  async check(db: Db, userId: number, code: string): Promise<boolean> {
    const record = await new TotpRepo(db).getEnabled(userId);
    if (!record) return false;
    return this.#accept(db, userId, record.secret, record.lastStep, code);
  }

  async disable(actor: Actor): Promise<void> {
    await withEvents(this.db, async (tx) => {
      const wasEnabled = (await enabledMethods(tx, actor.userId)).includes('totp');
      await new TotpRepo(tx).delete(actor.userId);
      if (!wasEnabled) return { result: undefined, events: [] };
      await this.core.disableMethod(tx, actor.userId, 'totp');
      return {
        result: undefined,
        events: [
          {
            type: 'mfa.method_disabled',
            actor: userActor(actor),
            object: userObject({ id: actor.userId, username: actor.username }),
            details: { method: 'totp' },
          },
        ],
      };
    });
  }

  /**
   * The sign-in step's check: whether `code` matches the enabled TOTP (read by the step's attempt
   * count) at a step later than the last accepted one. Writes nothing: the step is marked accepted
   * by the step's success statement, together with the pending session's end (`MfaCore.verifyPendingStep`).
   */
  signInStep(totp: PendingStepUser['totp'], code: string): TotpStepPass | false {
    if (!totp) return false;
    const step = this.#matchedStep(totp.secret, totp.lastStep, code);
    return step === undefined ? false : { totpStep: step };
  }

  async #accept(db: Db, userId: number, sealed: string, lastStep: number | null, code: string): Promise<boolean> {
    const step = this.#matchedStep(sealed, lastStep, code);
    if (step === undefined) return false;
    return new TotpRepo(db).accept(userId, step);
  }

  /** The time step (±1 around now, later than `lastStep`) `code` is valid for: an AES-GCM open and three HMAC-SHA1s. */
  #matchedStep(sealed: string, lastStep: number | null, code: string): number | undefined {
    const secret = this.secrets.decrypt(sealed);
    const result = verifySync({
      secret,
      token: code,
      crypto: NODE_CRYPTO,
      epochTolerance: TOLERANCE_SECONDS,
      ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }
}
