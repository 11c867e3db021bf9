import type { MfaEnabled, TotpInit } from '@palisade/contracts';
import { generateSecret, generateURI, verifySync } from 'otplib';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { HttpProblem } from '#src/lib/problem.js';
import { userActor } from '#src/modules/events/event-actor.js';
import { withEvents } from '#src/modules/events/record-event.js';
import { userObject } from '#src/modules/users/users.events.js';
import type { Actor } from '#src/modules/users/users.service.js';
import { enabledMethods, type MfaCore } from './mfa.core.js';
import { TotpRepo } from './totp.repo.js';

/** Codes of the previous, current and next 30-second step are accepted (±1 step). */
const PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = PERIOD_SECONDS;

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

  /** Enables TOTP with a first valid code; the first method of the user also returns recovery codes. */
  async enable(actor: Actor, code: string): Promise<MfaEnabled> {
    return withEvents(this.db, async (tx) => {
      if ((await enabledMethods(tx, actor.userId)).includes('totp')) {
        throw new HttpProblem(409, 'mfa.method_enabled', 'The authenticator app is already enabled.');
      }
      const record = await new TotpRepo(tx).get(actor.userId);
      if (!record) throw new HttpProblem(400, 'mfa.totp_not_initialized', 'Start the authenticator app setup first.');
      if (!(await this.#accept(tx, actor.userId, record.secret, record.lastStep, code))) {
        throw new HttpProblem(400, 'auth.invalid_code', 'Code is invalid');
      }
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
    });
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

  async #accept(db: Db, userId: number, sealed: string, lastStep: number | null, code: string): Promise<boolean> {
    const secret = this.secrets.decrypt(sealed);
    const result = verifySync({
      secret,
      token: code,
      epochTolerance: TOLERANCE_SECONDS,
      ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
    });
    if (!result.valid || !('timeStep' in result)) return false;
    return new TotpRepo(db).accept(userId, result.timeStep);
  }
}
