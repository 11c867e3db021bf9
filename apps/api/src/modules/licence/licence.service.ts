import type { KeyObject } from 'node:crypto';
import type { EnterpriseInfo, LicenceInfo, LicenceLimits } from '@palisade/contracts';
import type { Db } from '#src/db/client.js';
import { HttpProblem } from '#src/lib/problem.js';
import { type SignedInActor, userActor } from '#src/modules/events/event-actor.js';
import { recordEvent } from '#src/modules/events/record-event.js';
import { LicenceKeyError, verifyLicenceKey } from './licence-key.js';
import { FREE_LIMITS, PRODUCTION_LICENCE_PUBLIC_KEYS } from './licence-keys.js';
import { LicenceRepo } from './licence.repo.js';
import { licenceState } from './licence-state.js';

/**
 * How long a process trusts its computed licence state. Any committed event (users, devices,
 * locations and gateways all record one when they change) makes it stale at once, in every
 * replica (the events channel); this bound covers time passing (expiry) and a lost notification.
 */
export const LICENCE_STATE_TTL_MS = 30_000;

export interface LicenceOptions {
  /** Keys that sign valid licences; the built-in production key when absent. Tests pass the test key. */
  publicKeys?: readonly KeyObject[] | undefined;
  /** The free tier; FREE_LIMITS when absent. Tests that are not about licensing pass unlimited ones. */
  freeLimits?: LicenceLimits | undefined;
}

const REASONS: Record<LicenceKeyError['reason'], string> = {
  malformed: 'This is not a Palisade licence key.',
  signature: 'The licence key is not signed by the Palisade licence key, or it was changed.',
  payload: 'The licence key carries no licence this version understands.',
};

const describeExceeded = (info: EnterpriseInfo) =>
  info.exceeded.map((resource) => `${resource} ${info.usage[resource]} of ${info.limits[resource]}`).join(', ');

/** The problem an enterprise write answers while enterprise features are off (docs/licensing.md). */
export function licenceRequired(info: EnterpriseInfo): HttpProblem {
  const over = describeExceeded(info);
  const detail =
    info.status === 'limits_exceeded'
      ? `Usage is over the licence's limits (${over}). Enter a licence with higher limits in Settings › Global, or reduce usage.`
      : info.status === 'expired'
        ? `The licence has expired and usage is over the free limits (${over}). Renew the licence in Settings › Global, or reduce usage.`
        : `Enterprise features need a licence above the free limits (${over}). Enter a licence key in Settings › Global, or reduce usage.`;
  return new HttpProblem(402, 'license.required', detail);
}

/**
 * The licence (docs/licensing.md): verifies and stores keys, computes the state, and answers the
 * access plugin's enterprise check from memory (no counting per request).
 */
export class LicenceService {
  readonly #repo: LicenceRepo;
  readonly #publicKeys: readonly KeyObject[];
  readonly #freeLimits: LicenceLimits;
  #cached: { info: EnterpriseInfo; readAt: number; generation: number } | undefined;
  #loading: Promise<EnterpriseInfo> | undefined;

  constructor(
    private readonly db: Db,
    options: LicenceOptions = {},
    /** The events channel's generation (EventSignal): a change means rows may have changed. */
    private readonly generation: () => number = () => 0,
    private readonly now: () => number = Date.now,
  ) {
    this.#repo = new LicenceRepo(db);
    this.#publicKeys = options.publicKeys ?? PRODUCTION_LICENCE_PUBLIC_KEYS;
    this.#freeLimits = options.freeLimits ?? FREE_LIMITS;
  }

  /** The state from memory while it is fresh; otherwise computed (one computation at a time). */
  state(): EnterpriseInfo | Promise<EnterpriseInfo> {
    const cached = this.#cached;
    if (cached && cached.generation === this.generation() && this.now() - cached.readAt < LICENCE_STATE_TTL_MS) return cached.info;
    this.#loading ??= this.refresh().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  /** GET /enterprise_info: computed now (and remembered). */
  async refresh(): Promise<EnterpriseInfo> {
    const generation = this.generation();
    const [key, usage] = await Promise.all([this.#repo.key(), this.#repo.usage()]);
    const info = licenceState(this.#stored(key), usage, this.now(), this.#freeLimits);
    this.#cached = { info, readAt: this.now(), generation };
    return info;
  }

  /** The access plugin's check for the writes of enterprise routes: a 402 while enterprise features are off. */
  async assertEnterpriseEnabled(): Promise<void> {
    const info = await this.state();
    if (!info.enterprise_enabled) throw licenceRequired(info);
  }

  /** PUT /licence: verifies the key and stores it; nothing is stored when it does not verify. */
  async set(actor: SignedInActor, key: string): Promise<EnterpriseInfo> {
    let licence: LicenceInfo;
    try {
      licence = verifyLicenceKey(key, this.#publicKeys);
    } catch (error) {
      if (error instanceof LicenceKeyError) throw new HttpProblem(400, 'license.invalid', REASONS[error.reason]);
      throw error;
    }
    await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      await new LicenceRepo(tx).replaceKey(key.trim());
      await recordEvent(tx, {
        type: 'licence.modified',
        actor: userActor(actor),
        object: { type: 'licence', id: licence.id, name: licence.customer },
        details: { type: licence.type, valid_until: licence.valid_until },
      });
    });
    return this.refresh();
  }

  /** DELETE /licence: removes the key (the free limits apply again); without one, changes nothing. */
  async remove(actor: SignedInActor): Promise<EnterpriseInfo> {
    await this.db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const before = await new LicenceRepo(tx).replaceKey(null);
      if (before === null) return;
      const licence = this.#stored(before);
      await recordEvent(tx, {
        type: 'licence.removed',
        actor: userActor(actor),
        object: { type: 'licence', ...(licence ? { id: licence.id, name: licence.customer } : {}) },
      });
    });
    return this.refresh();
  }

  /** The stored key's licence; null without one or when it no longer verifies (another build's key). */
  #stored(key: string | null): LicenceInfo | null {
    if (key === null) return null;
    try {
      return verifyLicenceKey(key, this.#publicKeys);
    } catch {
      return null;
    }
  }
}
