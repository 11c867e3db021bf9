import { z } from 'zod';

/** Spec §9: licence types. A subscription renews itself and has a grace period; an offline key is renewed by hand. */
export const LICENCE_TYPES = ['subscription', 'offline'] as const;
export type LicenceType = (typeof LICENCE_TYPES)[number];

/** Spec §4: the licence states (docs/licensing.md). */
export const LICENCE_STATUSES = ['no_licence', 'expired', 'limits_exceeded', 'active'] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

/** What a licence and the free tier limit; counted from the database. */
export const LICENCE_RESOURCES = ['users', 'devices', 'locations', 'gateways'] as const;
export type LicenceResource = (typeof LICENCE_RESOURCES)[number];

/** Limits per resource; null = unlimited. */
export const LicenceLimitsSchema = z
  .object({
    users: z.number().int().nullable(),
    devices: z.number().int().nullable(),
    locations: z.number().int().nullable(),
    gateways: z.number().int().nullable(),
  })
  .meta({ id: 'LicenceLimits' });
export type LicenceLimits = z.infer<typeof LicenceLimitsSchema>;

export const LicenceUsageSchema = z
  .object({ users: z.number().int(), devices: z.number().int(), locations: z.number().int(), gateways: z.number().int() })
  .meta({ id: 'LicenceUsage' });
export type LicenceUsage = z.infer<typeof LicenceUsageSchema>;

export const LicenceInfoSchema = z
  .object({
    id: z.string(),
    customer: z.string(),
    type: z.enum(LICENCE_TYPES),
    valid_until: z.string().meta({ description: 'ISO 8601 time the licence ends (a subscription then has its grace period).' }),
    limits: LicenceLimitsSchema,
  })
  .meta({ id: 'LicenceInfo' });
export type LicenceInfo = z.infer<typeof LicenceInfoSchema>;

/** GET /enterprise_info (spec §7): the licence, its state, the usage, and whether enterprise features work. */
export const EnterpriseInfoSchema = z
  .object({
    /** The stored licence; null without one (or when the stored key no longer verifies). */
    licence: LicenceInfoSchema.nullable(),
    status: z.enum(LICENCE_STATUSES),
    /** A subscription past valid_until but inside its grace period: still active, renew now. */
    grace_period: z.boolean(),
    /** When the grace period ends (subscriptions only); null otherwise. */
    grace_ends_at: z.string().nullable(),
    usage: LicenceUsageSchema,
    /** The limits that apply now: the licence's while it is active, else the free tier's. */
    limits: LicenceLimitsSchema,
    /** The resources over `limits`. */
    exceeded: z.array(z.enum(LICENCE_RESOURCES)),
    free_limits: LicenceLimitsSchema,
    /** Enterprise features work: an active licence within its limits, or usage within the free limits. */
    enterprise_enabled: z.boolean(),
  })
  .meta({ id: 'EnterpriseInfo' });
export type EnterpriseInfo = z.infer<typeof EnterpriseInfoSchema>;

export const SetLicenceBodySchema = z.strictObject({
  licence_key: z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required', abort: true }).max(8192, { error: 'max_length' }),
});
export type SetLicenceBody = z.infer<typeof SetLicenceBodySchema>;
