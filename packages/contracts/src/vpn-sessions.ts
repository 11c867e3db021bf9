import { z } from 'zod';
import { wireguardKeySchema } from './devices.js';
import { MfaCodeSchema } from './mfa.js';
import { CredentialResponseSchema, WebauthnOptionsSchema } from './mfa-webauthn.js';
import { MfaMethodSchema } from './users.js';

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
  /**
   * The second factor to pass: the user's default method when it is one of these, else the first
   * enabled one. `email` mails a 6-digit code; `webauthn` answers the assertion options.
   */
  method: MfaMethodSchema.optional(),
});
export type VpnSessionStartBody = z.infer<typeof VpnSessionStartBodySchema>;

export const VpnSessionChallengeSchema = z
  .object({
    challenge: z.string(),
    expires_at: z.string(),
    /** The method this challenge is finished with. */
    method: MfaMethodSchema,
    /** The user's methods a session can be finished with (to offer a switch: start again with another). */
    methods: z.array(MfaMethodSchema),
    /** WebAuthn request options for `navigator.credentials.get`, when `method` is `webauthn`. */
    webauthn: WebauthnOptionsSchema.optional(),
  })
  .meta({ id: 'VpnSessionChallenge' });
export type VpnSessionChallenge = z.infer<typeof VpnSessionChallengeSchema>;

/**
 * `code` (6 digits: the authenticator app's or the emailed one) for a `totp` or `email` challenge,
 * `credential` (the WebAuthn assertion JSON) for a `webauthn` challenge.
 */
export const VpnSessionFinishBodySchema = z
  .strictObject({
    challenge: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(128, { error: 'max_length' }),
    code: MfaCodeSchema.optional(),
    credential: CredentialResponseSchema.optional(),
  })
  .refine((b) => b.code !== undefined || b.credential !== undefined, { error: 'required', path: ['code'] })
  .refine((b) => b.code === undefined || b.credential === undefined, { error: 'invalid', path: ['credential'] });
export type VpnSessionFinishBody = z.infer<typeof VpnSessionFinishBodySchema>;

export const VPN_SESSION_END_REASONS = ['disconnected', 'inactive', 'user_disabled', 'replaced', 'mfa_reset'] as const;

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
