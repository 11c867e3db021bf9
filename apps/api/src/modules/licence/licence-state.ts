import { type EnterpriseInfo, LICENCE_RESOURCES, type LicenceInfo, type LicenceLimits, type LicenceUsage } from '@palisade/contracts';
import { SUBSCRIPTION_GRACE_DAYS } from './licence-keys.js';

const DAY_MS = 86_400_000;

const over = (usage: LicenceUsage, limits: LicenceLimits) =>
  LICENCE_RESOURCES.filter((resource) => limits[resource] !== null && usage[resource] > (limits[resource] as number));

/**
 * Spec §4 licence states (docs/licensing.md), from the stored licence (null: none, or a key that
 * no longer verifies), the usage and the time:
 * - `no_licence` / `expired` (an offline key after valid_until, a subscription after its grace
 *   period): the free limits apply;
 * - `limits_exceeded`: a current licence whose limits the usage is over;
 * - `active`: a current licence within its limits; a subscription between valid_until and the end
 *   of its grace period is active with `grace_period` set.
 * Enterprise features work while the limits that apply hold, and always within the free limits.
 */
export function licenceState(licence: LicenceInfo | null, usage: LicenceUsage, now: number, freeLimits: LicenceLimits): EnterpriseInfo {
  const freeExceeded = over(usage, freeLimits);
  const base = { licence, usage, free_limits: freeLimits, grace_period: false, grace_ends_at: null };
  if (!licence) {
    return { ...base, status: 'no_licence', limits: freeLimits, exceeded: freeExceeded, enterprise_enabled: freeExceeded.length === 0 };
  }
  const validUntil = Date.parse(licence.valid_until);
  const graceEnds = licence.type === 'subscription' ? validUntil + SUBSCRIPTION_GRACE_DAYS * DAY_MS : null;
  const graceEndsAt = graceEnds === null ? null : new Date(graceEnds).toISOString();
  if (now > (graceEnds ?? validUntil)) {
    return {
      ...base,
      grace_ends_at: graceEndsAt,
      status: 'expired',
      limits: freeLimits,
      exceeded: freeExceeded,
      enterprise_enabled: freeExceeded.length === 0,
    };
  }
  const exceeded = over(usage, licence.limits);
  return {
    ...base,
    grace_period: now > validUntil,
    grace_ends_at: graceEndsAt,
    status: exceeded.length > 0 ? 'limits_exceeded' : 'active',
    limits: licence.limits,
    exceeded,
    enterprise_enabled: exceeded.length === 0 || freeExceeded.length === 0,
  };
}
