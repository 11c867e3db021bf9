import { z } from 'zod';

/**
 * Security keys / passkeys (WebAuthn, issue 10 §2). The browser's `navigator.credentials` JSON
 * (`@simplewebauthn/browser`'s `startRegistration` / `startAuthentication` results) travels as
 * `response`; the server checks it against the challenge it issued.
 */

/** A credential response as the browser serialises it; its contents are checked by the server. */
export const CredentialResponseSchema = z
  .looseObject({
    id: z.string({ error: 'required' }).min(1, { error: 'required' }).max(1024, { error: 'max_length' }),
    rawId: z.string({ error: 'required' }).max(1024, { error: 'max_length' }),
    type: z.literal('public-key', { error: 'invalid' }),
    response: z.looseObject({}),
  })
  .meta({ id: 'WebauthnCredentialResponse' });

export const SecurityKeyNameSchema = z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(64, { error: 'max_length' });

export const WebauthnFinishBodySchema = z.strictObject({ name: SecurityKeyNameSchema, response: CredentialResponseSchema });
export type WebauthnFinishBody = z.infer<typeof WebauthnFinishBodySchema>;

export const WebauthnSignInBodySchema = z.strictObject({ response: CredentialResponseSchema });
export type WebauthnSignInBody = z.infer<typeof WebauthnSignInBodySchema>;

/** `PublicKeyCredentialCreationOptionsJSON` / `…RequestOptionsJSON`, passed to the browser as is. */
export const WebauthnOptionsSchema = z.looseObject({ challenge: z.string() }).meta({ id: 'WebauthnOptions' });
export type WebauthnOptions = z.infer<typeof WebauthnOptionsSchema>;

export const SecurityKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    created_at: z.string(),
    last_used_at: z.string().optional(),
  })
  .meta({ id: 'SecurityKey' });
export type SecurityKey = z.infer<typeof SecurityKeySchema>;

export const SecurityKeyParamsSchema = z.object({
  username: z.string(),
  keyId: z.coerce
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .positive({ error: 'invalid' })
    .max(2_147_483_647, { error: 'invalid' }),
});
