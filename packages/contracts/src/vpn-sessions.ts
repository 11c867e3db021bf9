import { z } from 'zod';
import { wireguardKeySchema } from './devices.js';

/**
 * MFA-authorised VPN sessions of MFA-protected locations (docs/mfa.md). A client starts one with
 * the location and its device's public key, passes the owner's MFA with the challenge it got, and
 * receives the session's preshared key once.
 */
export const VpnSessionStartBodySchema = z.strictObject({
  location_id: z
    .number({ error: 'invalid_type' })
    .int({ error: 'invalid_type' })
    .min(1, { error: 'invalid' })
    .max(2_147_483_647, { error: 'invalid' }),
  device_pubkey: wireguardKeySchema,
});

export const VpnSessionChallengeSchema = z
  .object({
    challenge: z.string(),
    expires_at: z.string(),
    /** The second-factor methods the session can be finished with. */
    methods: z.array(z.enum(['totp'])),
  })
  .meta({ id: 'VpnSessionChallenge' });

export const VpnSessionFinishBodySchema = z.strictObject({
  challenge: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(128, { error: 'max_length' }),
  code: z
    .string({ error: 'required' })
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, { error: 'invalid_code' })),
});

export const VPN_SESSION_END_REASONS = ['disconnected', 'inactive', 'user_disabled', 'replaced'] as const;

export const VpnSessionSchema = z
  .object({
    id: z.number().int(),
    device_id: z.number().int(),
    device_name: z.string(),
    location_id: z.number().int(),
    location_name: z.string(),
    started_at: z.string(),
    last_handshake: z.string().nullable(),
    ended_at: z.string().nullable(),
    end_reason: z.enum(VPN_SESSION_END_REASONS).nullable(),
  })
  .meta({ id: 'VpnSession' });
export type VpnSession = z.infer<typeof VpnSessionSchema>;

/** The finished MFA: the session and its preshared key, shown this once. */
export const VpnSessionStartedSchema = z.object({ session: VpnSessionSchema, preshared_key: z.string() }).meta({ id: 'VpnSessionStarted' });

export const VpnSessionIdParamsSchema = z.strictObject({ id: z.coerce.number({ error: 'number' }).int().min(1).max(2_147_483_647) });
