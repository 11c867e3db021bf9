import { z } from 'zod';
import { LIMITS, requiredString } from './validation.js';

/**
 * Sign-in with the company's identity provider (spec §2 Login, §3 External OpenID provider, §7
 * `/openid/provider`, `/openid/auth_info`, `/openid/callback`; docs/external-openid.md) and the
 * directory-sync fields stored with it (docs/directory-sync.md). Secrets are write-only: a read
 * carries `*_set` booleans; on a write an absent secret keeps the stored one and '' removes it.
 */
export const EXTERNAL_PROVIDER_KINDS = ['Google', 'Microsoft', 'Okta', 'JumpCloud', 'Custom'] as const;
export type ExternalProviderKind = (typeof EXTERNAL_PROVIDER_KINDS)[number];

/** Issuer URLs that are the same for every customer of a kind (the console prefills them). */
export const EXTERNAL_PROVIDER_BASE_URLS: Partial<Record<ExternalProviderKind, string>> = {
  Google: 'https://accounts.google.com',
  JumpCloud: 'https://oauth.id.jumpcloud.com',
};

/** How a username that is not valid in Palisade is made from the provider's claims. */
export const USERNAME_HANDLINGS = ['remove', 'replace', 'prune_email'] as const;
export type UsernameHandling = (typeof USERNAME_HANDLINGS)[number];

export const DIRECTORY_SYNC_TARGETS = ['all', 'users', 'groups'] as const;
export type DirectorySyncTarget = (typeof DIRECTORY_SYNC_TARGETS)[number];

export const DIRECTORY_SYNC_BEHAVIORS = ['keep', 'disable', 'delete'] as const;
export type DirectorySyncBehavior = (typeof DIRECTORY_SYNC_BEHAVIORS)[number];

const oneLine = (max: number) =>
  z
    .string({ error: 'invalid_type' })
    .trim()
    .max(max, { error: 'max_length' })
    .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]*$/u, { error: 'invalid' });

/** A provider's name: one line, no slash (it is a path segment of `/openid/provider/{name}`). */
export const externalProviderNameSchema = requiredString(64).regex(/^[^\p{Cc}\p{Zl}\p{Zp}/\\?#%]+$/u, { error: 'invalid' });

/** The issuer URL (OpenID discovery runs against `<base_url>/.well-known/openid-configuration`). */
const baseUrl = requiredString(LIMITS.urlMax).refine(
  (v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '' && u.hash === '';
    } catch {
      return false;
    }
  },
  { error: 'url.http' },
);

const secret = (max: number) => z.string({ error: 'invalid_type' }).max(max, { error: 'max_length' }).optional();

/** A provider as the API returns it. */
export const ExternalProviderSchema = z
  .object({
    kind: z.enum(EXTERNAL_PROVIDER_KINDS),
    name: z.string(),
    client_id: z.string(),
    client_secret_set: z.boolean(),
    base_url: z.string(),
    display_name: z.string(),
    auto_create_account: z.boolean(),
    username_handling: z.enum(USERNAME_HANDLINGS),
    enable_directory_sync: z.boolean(),
    sync_target: z.enum(DIRECTORY_SYNC_TARGETS),
    sync_interval: z.number().int(),
    user_behavior: z.enum(DIRECTORY_SYNC_BEHAVIORS),
    admin_behavior: z.enum(DIRECTORY_SYNC_BEHAVIORS),
    admin_email: z.string(),
    google_service_account_key_set: z.boolean(),
    google_service_account_email: z.string(),
    okta_client_id: z.string(),
    okta_private_jwk_set: z.boolean(),
    jumpcloud_api_key_set: z.boolean(),
    group_match: z.array(z.string()),
  })
  .meta({ id: 'ExternalProvider' });
export type ExternalProvider = z.infer<typeof ExternalProviderSchema>;

/**
 * `GET /openid/provider`: the configured provider (null when there is none) and the redirect URL
 * to register at the provider.
 */
export const ExternalProviderListSchema = z
  .object({ provider: ExternalProviderSchema.nullable(), redirect_url: z.string() })
  .meta({ id: 'ExternalProviderList' });
export type ExternalProviderList = z.infer<typeof ExternalProviderListSchema>;

const writableFields = {
  kind: z.enum(EXTERNAL_PROVIDER_KINDS, { error: 'invalid' }),
  client_id: requiredString(255),
  client_secret: secret(1024),
  base_url: baseUrl,
  display_name: oneLine(64).default(''),
  auto_create_account: z.boolean({ error: 'invalid_type' }).default(true),
  username_handling: z.enum(USERNAME_HANDLINGS, { error: 'invalid' }).default('remove'),
  enable_directory_sync: z.boolean({ error: 'invalid_type' }).default(false),
  sync_target: z.enum(DIRECTORY_SYNC_TARGETS, { error: 'invalid' }).default('all'),
  sync_interval: z
    .number({ error: 'number' })
    .int({ error: 'number' })
    .min(60, { error: 'min_value' })
    .max(7 * 24 * 3600, { error: 'max_value' })
    .default(1800),
  user_behavior: z.enum(DIRECTORY_SYNC_BEHAVIORS, { error: 'invalid' }).default('keep'),
  admin_behavior: z.enum(DIRECTORY_SYNC_BEHAVIORS, { error: 'invalid' }).default('keep'),
  admin_email: z
    .string({ error: 'invalid_type' })
    .trim()
    .max(LIMITS.emailMax, { error: 'max_length' })
    .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'email' })
    .default(''),
  /** The Google service-account key file (JSON), write-only. */
  google_service_account_key: secret(16_384),
  google_service_account_email: oneLine(LIMITS.emailMax).default(''),
  okta_client_id: oneLine(255).default(''),
  /** The Okta private JWK (JSON) for `private_key_jwt`, write-only. */
  okta_private_jwk: secret(16_384),
  jumpcloud_api_key: secret(1024),
  group_match: z.array(oneLine(255), { error: 'invalid_type' }).max(500, { error: 'max_length' }).default([]),
};

/** `POST /openid/provider`: create the provider (409 when one exists: one at a time). */
export const CreateExternalProviderBodySchema = z.strictObject({ name: externalProviderNameSchema, ...writableFields });
export type CreateExternalProviderBody = z.input<typeof CreateExternalProviderBodySchema>;

/** `PUT /openid/provider/{name}`: replace its settings (a rename through `name`). */
export const UpdateExternalProviderBodySchema = CreateExternalProviderBodySchema;
export type UpdateExternalProviderBody = z.input<typeof UpdateExternalProviderBodySchema>;

export const ExternalProviderParamsSchema = z.strictObject({ name: z.string().min(1).max(64) });

/** `GET /openid/auth_info`: where the login button sends the browser. */
export const ExternalAuthInfoSchema = z.object({ url: z.string(), button_display_name: z.string() }).meta({ id: 'ExternalAuthInfo' });
export type ExternalAuthInfo = z.infer<typeof ExternalAuthInfoSchema>;

/** `POST /openid/callback`: what the provider sent back to the console's callback page. */
export const ExternalCallbackBodySchema = z.strictObject({
  code: requiredString(4096),
  state: requiredString(512),
  /** The provider's `iss` response parameter (RFC 9207), when it sent one. */
  iss: z.string().max(LIMITS.urlMax).optional(),
});
export type ExternalCallbackBody = z.infer<typeof ExternalCallbackBodySchema>;

/** The console route the provider redirects to (register `<public URL>` + this at the IdP). */
export const EXTERNAL_CALLBACK_PATH = '/auth/callback';
