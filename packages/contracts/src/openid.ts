import { z } from 'zod';

/** `POST /openid/verify`: the console asks what the waiting OpenID authorization wants (docs/openid.md). */
export const OpenidVerifyBodySchema = z.object({ interaction: z.string().min(1).max(128) }).meta({ id: 'OpenidVerifyBody' });
export type OpenidVerifyBody = z.infer<typeof OpenidVerifyBodySchema>;

export const OpenidVerifySchema = z
  .object({
    client: z.object({ name: z.string(), client_id: z.string() }),
    /** The scopes the app asks for (openid, profile, email, phone, groups). */
    scopes: z.array(z.string()),
    /** True while the browser has no active console session: sign in first, then consent. */
    login_required: z.boolean(),
  })
  .meta({ id: 'OpenidVerify' });
export type OpenidVerify = z.infer<typeof OpenidVerifySchema>;

/** `POST /oauth/authorize?interaction=…&allow=true|false` (empty body). */
export const OauthAuthorizeQuerySchema = z.object({ interaction: z.string().min(1).max(128), allow: z.enum(['true', 'false']) });

/** Where the console sends the browser next (the provider's resume URL). */
export const OauthAuthorizeSchema = z.object({ url: z.string() }).meta({ id: 'OauthAuthorize' });
export type OauthAuthorize = z.infer<typeof OauthAuthorizeSchema>;

/** `POST /openid/keys/rotate` (admin): new signing keys, published now, signing after `publish_ahead_hours`. */
export const OpenidKeysRotateBodySchema = z
  .object({ publish_ahead_hours: z.number().int().min(0).max(720).default(24) })
  .meta({ id: 'OpenidKeysRotateBody' });

export const OpenidKeysRotatedSchema = z
  .object({
    /** The new keys' IDs (RS256 and ES256), in the JWKS from now on. */
    kids: z.array(z.string()),
    /** When the new keys start signing and the current ones stop. */
    activates_at: z.string(),
  })
  .meta({ id: 'OpenidKeysRotated' });
export type OpenidKeysRotated = z.infer<typeof OpenidKeysRotatedSchema>;
