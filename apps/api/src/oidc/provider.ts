import { createHmac } from 'node:crypto';
import Provider, { type Configuration, errors, type KoaContextWithOIDC, interactionPolicy } from 'oidc-provider';
import type { Db } from '#src/db/client.js';
import type { SecretBox } from '#src/lib/crypto.js';
import { findAccount, OIDC_CLAIMS } from './account.js';
import { findClientMetadata } from './clients.js';
import { databaseAdapter, findGrantId } from './provider.repo.js';
import { errorPageRenderer } from './render-error.js';
import { RequestWrites, requestWrites } from './request-writes.repo.js';
import { ID_TOKEN_TTL_SECONDS, type ProviderJwk } from './signing-keys.js';

/** Where the provider's own endpoints live; discovery stays at `/.well-known/openid-configuration`. */
export const OIDC_PREFIX = '/api/v1/oidc';
/** The console page an interaction (sign-in, consent) sends the browser to. */
export const consentUrl = (uid: string): string => `/consent?interaction=${encodeURIComponent(uid)}`;

export const OIDC_SCOPES = ['openid', 'profile', 'email', 'phone', 'groups'] as const;

const DAY = 86_400;

export interface ProviderHooks {
  /**
   * The console session of the browser behind this request, when active: a provider session
   * counts only while the same user is signed in to the console (ProviderHooks in oidc/host.ts).
   */
  consoleAccount(ctx: KoaContextWithOIDC): Promise<string | undefined>;
  /** interactions.url: the console page, or the resume URL when the interaction finished at once. */
  interactionUrl(ctx: KoaContextWithOIDC, interaction: InstanceType<Provider['Interaction']>): Promise<string>;
}

/** The provider's cookie signing keys, derived from the secret key (never stored, never hard-coded). */
export function cookieKeys(secrets: SecretBox): string[] {
  return [createHmac('sha256', secrets.deriveKey('oidc-cookies')).update('v1').digest('base64url')];
}

/** The login prompt asks again when the browser has no console session of the provider session's user. */
function policy(hooks: ProviderHooks): interactionPolicy.DefaultPolicy {
  const base = interactionPolicy.base();
  const login = base.get('login');
  login?.checks.add(
    new interactionPolicy.Check('console_session', 'the Palisade console session has ended', async (ctx) => {
      const sessionAccount = ctx.oidc.session?.accountId;
      if (!sessionAccount) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const consoleAccount = await hooks.consoleAccount(ctx);
      return consoleAccount === sessionAccount ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  return base;
}

export interface ProviderOptions {
  issuer: string;
  db: Db;
  secrets: SecretBox;
  jwks: ProviderJwk[];
  hooks: ProviderHooks;
}

export function createProvider(options: ProviderOptions): Provider {
  const { db, secrets, hooks } = options;
  const configuration: Configuration = {
    adapter: databaseAdapter(db, (clientId, q) => findClientMetadata(q, secrets, clientId)),
    findAccount: (_ctx, sub) => findAccount(db, sub),
    claims: {
      // Claims the provider sets itself; `amr` (with `mfa` when the console session passed MFA)
      // goes into every ID token with the openid scope.
      acr: null,
      auth_time: null,
      iss: null,
      sid: null,
      ...Object.fromEntries(Object.entries(OIDC_CLAIMS).map(([scope, claims]) => [scope, [...claims]])),
      openid: ['sub', 'amr'],
    },
    scopes: [...OIDC_SCOPES, 'offline_access'],
    responseTypes: ['code'],
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: false },
      introspection: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true },
      userinfo: { enabled: true },
    },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 3600,
      IdToken: ID_TOKEN_TTL_SECONDS,
      RefreshToken: 30 * DAY,
      Interaction: 3600,
      Session: 14 * DAY,
      Grant: 365 * DAY,
    },
    rotateRefreshToken: true,
    // Every app gets refresh tokens (no offline_access needed); they live by their own lifetime.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    conformIdTokenClaims: false,
    routes: {
      authorization: `${OIDC_PREFIX}/auth`,
      token: `${OIDC_PREFIX}/token`,
      userinfo: `${OIDC_PREFIX}/me`,
      jwks: `${OIDC_PREFIX}/jwks`,
      revocation: `${OIDC_PREFIX}/token/revocation`,
      introspection: `${OIDC_PREFIX}/token/introspection`,
      end_session: `${OIDC_PREFIX}/session/end`,
      code_verification: `${OIDC_PREFIX}/device`,
      device_authorization: `${OIDC_PREFIX}/device/auth`,
      pushed_authorization_request: `${OIDC_PREFIX}/request`,
      registration: `${OIDC_PREFIX}/reg`,
      backchannel_authentication: `${OIDC_PREFIX}/backchannel`,
    },
    interactions: {
      url: (ctx, interaction) => hooks.interactionUrl(ctx, interaction),
      policy: policy(hooks),
    },
    cookies: {
      keys: cookieKeys(secrets),
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      // The interaction cookie reaches the API (POST /openid/verify, /oauth/authorize, /auth):
      // that is what binds an interaction to the browser that started it (ADR-006).
      short: { httpOnly: true, sameSite: 'lax', signed: true, path: '/api/v1' },
    },
    jwks: { keys: options.jwks as never },
    loadExistingGrant: async (ctx) => {
      const grantId =
        ctx.oidc.result?.consent?.grantId ??
        ctx.oidc.session?.grantIdFor(ctx.oidc.client?.clientId ?? '') ??
        (ctx.oidc.session?.accountId && ctx.oidc.client
          ? await findGrantId(db, ctx.oidc.session.accountId, ctx.oidc.client.clientId)
          : undefined);
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    clientBasedCORS: (ctx, origin, client) =>
      (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') &&
      (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    renderError: errorPageRenderer(db),
  };
  const provider = new Provider(options.issuer, configuration);
  // OidcHost.handle sets X-Forwarded-Host/Proto to the issuer's on every request it hands over.
  provider.proxy = true;
  provider.use(tokenRequestWrites(db));
  return provider;
}

const TOKEN_PATH = `${OIDC_PREFIX}/token`;

/**
 * Token requests write their artifacts in one statement after the provider has built the answer
 * and before Koa sends it (oidc/request-writes.repo.ts). Runs outside the provider's error handler, so
 * a failed write is answered here as the provider answers errors: `invalid_grant` when the code or
 * refresh token was consumed meanwhile, `server_error` otherwise — never the tokens it built.
 */
function tokenRequestWrites(db: Db): Parameters<Provider['use']>[0] {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== TOKEN_PATH) return next();
    const writes = new RequestWrites();
    await requestWrites.run(writes, next);
    try {
      await writes.settle(db);
    } catch (err) {
      const known = err instanceof errors.OIDCProviderError && err.expose;
      // An error answer the provider already built stands.
      if (known && ctx.status >= 400) return;
      ctx.status = known ? err.statusCode : 500;
      ctx.body = known
        ? { error: err.message, error_description: (err as { error_description?: string }).error_description }
        : { error: 'server_error', error_description: 'oops! something went wrong' };
      if (!known) ctx.oidc?.provider.emit('server_error', ctx, err as Error);
    }
  };
}
