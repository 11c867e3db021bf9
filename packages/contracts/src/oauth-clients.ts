import { z } from 'zod';
import { LIMITS, requiredString } from './validation.js';

/** The scopes an OpenID app may request (spec §9). */
export const OAUTH_SCOPES = ['openid', 'profile', 'email', 'phone', 'groups'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** At most this many redirect URIs per app. */
export const OAUTH_REDIRECT_URIS_MAX = 32;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The field code for one redirect URI, or undefined when it is acceptable. */
export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url.invalid';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url.invalid';
  if (url.hostname === '') return 'url.invalid';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return 'oauth.redirect_https';
  if (url.username !== '' || url.password !== '') return 'url.credentials';
  if (value.includes('#')) return 'oauth.redirect_fragment';
  return undefined;
}

/**
 * One redirect URI (spec §5 "URL required and valid"): an absolute https URL (http only for
 * localhost, 127.0.0.1 and [::1]), no credentials, no fragment. The provider compares it exactly.
 */
const redirectUriSchema = z
  .string({ error: (i) => (i.input === undefined ? 'required' : 'invalid_type') })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(LIMITS.urlMax, { error: 'max_length', abort: true })
  .superRefine((value, ctx) => {
    const code = redirectUriProblem(value);
    if (code) ctx.addIssue({ code: 'custom', message: code });
  });

const redirectUrisSchema = z
  .array(redirectUriSchema, { error: 'required' })
  .min(1, { error: 'oauth.redirect_required', abort: true })
  .max(OAUTH_REDIRECT_URIS_MAX, { error: 'max_length', abort: true })
  .superRefine((uris, ctx) => {
    const seen = new Set<string>();
    uris.forEach((uri, index) => {
      if (seen.has(uri)) ctx.addIssue({ code: 'custom', message: 'oauth.redirect_duplicate', path: [index] });
      seen.add(uri);
    });
  });

// Spec §5: at least one scope.
const scopesSchema = z
  .array(z.enum(OAUTH_SCOPES, { error: 'invalid' }), { error: 'required' })
  .min(1, { error: 'oauth.scope_required' })
  .transform((scopes) => OAUTH_SCOPES.filter((s) => scopes.includes(s)));

const appFields = {
  name: requiredString(LIMITS.nameMax),
  redirect_uris: redirectUrisSchema,
  scopes: scopesSchema,
  /** A public client (single-page or native app) has no secret and must use PKCE. */
  public: z.boolean({ error: 'invalid_type' }).default(false),
};

/** An OpenID app (OAuth client, spec §3). The secret is never part of it. */
export const OAuthClientSchema = z
  .object({
    client_id: z.string(),
    name: z.string(),
    redirect_uris: z.array(z.string()),
    scopes: z.array(z.enum(OAUTH_SCOPES)),
    public: z.boolean(),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'OAuthClient' });
export type OAuthClient = z.infer<typeof OAuthClientSchema>;
export const OAuthClientListSchema = z.array(OAuthClientSchema).meta({ id: 'OAuthClientList' });

/**
 * The answer to creating an app (and to changing a public app into a confidential one): the app
 * with its new client secret, shown this once (it can be shown again explicitly, and regenerated).
 */
export const OAuthClientWithSecretSchema = OAuthClientSchema.extend({ client_secret: z.string().optional() }).meta({
  id: 'OAuthClientWithSecret',
});
export type OAuthClientWithSecret = z.infer<typeof OAuthClientWithSecretSchema>;

export const CreateOAuthClientBodySchema = z.strictObject({ ...appFields, enabled: z.boolean({ error: 'invalid_type' }).default(true) });
export type CreateOAuthClientBody = z.infer<typeof CreateOAuthClientBodySchema>;
/**
 * `public` may change: turning a confidential app public drops its secret, turning a public app
 * confidential generates one (answered once, like on creation).
 */
export const UpdateOAuthClientBodySchema = z.strictObject(appFields);
export type UpdateOAuthClientBody = z.infer<typeof UpdateOAuthClientBodySchema>;
export const OAuthClientStateBodySchema = z.strictObject({ enabled: z.boolean({ error: 'required' }) });
export type OAuthClientStateBody = z.infer<typeof OAuthClientStateBodySchema>;
export const OAuthClientIdParamsSchema = z.strictObject({ id: z.string().min(1).max(64) });

/** A confidential app's client secret ("show secret" and "regenerate secret"). */
export const OAuthClientSecretSchema = z.object({ client_secret: z.string() }).meta({ id: 'OAuthClientSecret' });
export type OAuthClientSecret = z.infer<typeof OAuthClientSecretSchema>;
