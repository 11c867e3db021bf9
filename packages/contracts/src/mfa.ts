import { z } from 'zod';
import { MfaMethodSchema } from './users.js';

/** A second-factor code as typed: 6 digits (spec §5, §9); spaces are allowed and ignored. */
export const MfaCodeSchema = z
  .string({ error: 'required' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: 'mfa.code_digits' }));

export const MfaCodeBodySchema = z.strictObject({ code: MfaCodeSchema });
export type MfaCodeBody = z.infer<typeof MfaCodeBodySchema>;

/** Recovery codes are shown once, when the first method is enabled or when they are regenerated. */
export const RecoveryCodesSchema = z.object({ codes: z.array(z.string()) }).meta({ id: 'RecoveryCodes' });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** A recovery code as typed (`xxxxx-xxxxx`; case, spaces and dashes are ignored). */
export const RecoveryCodeBodySchema = z.strictObject({
  code: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(64, { error: 'max_length' }),
});

export const TotpInitSchema = z.object({ secret: z.string(), uri: z.string() }).meta({ id: 'TotpInit' });
export type TotpInit = z.infer<typeof TotpInitSchema>;

/** Enabling a method answers the recovery codes when it was the user's first method. */
export const MfaEnabledSchema = z.object({ recovery_codes: z.array(z.string()).optional() }).meta({ id: 'MfaEnabled' });
export type MfaEnabled = z.infer<typeof MfaEnabledSchema>;

export const MfaDefaultBodySchema = z.strictObject({ default_method: MfaMethodSchema });

/** Turning MFA off proves the user: the current password or a fresh code of an enabled method. */
export const MfaDisableBodySchema = z
  .strictObject({
    password: z.string().min(1, { error: 'required' }).max(1024, { error: 'max_length' }).optional(),
    code: MfaCodeSchema.optional(),
  })
  .refine((b) => b.password !== undefined || b.code !== undefined, { error: 'required', path: ['password'] });

export const MfaStatusSchema = z
  .object({
    mfa_enabled: z.boolean(),
    methods: z.array(MfaMethodSchema),
    default_method: MfaMethodSchema.optional(),
    recovery_codes_left: z.number().int(),
  })
  .meta({ id: 'MfaStatus' });
export type MfaStatus = z.infer<typeof MfaStatusSchema>;
