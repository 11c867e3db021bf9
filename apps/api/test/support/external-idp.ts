import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** An account at the test identity provider; `sub` is its id there. */
export interface IdpAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
}

export interface ExternalIdp {
  /** The issuer URL (`http://127.0.0.1:<port>`), the provider's `base_url`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or replaces an account. */
  setAccount(account: IdpAccount): void;
  /** The account the next authorization signs in as (the interaction completes by itself). */
  signInAs(sub: string | undefined): void;
  close(): Promise<void>;
}

/**
 * A second `oidc-provider` on 127.0.0.1 port 0 playing the company's identity provider for the
 * external OpenID sign-in tests (docs/external-openid.md). One confidential client (secret,
 * `client_secret_post`, PKCE) whose redirect URIs are given. The login interaction completes by
 * itself as the account set with `signInAs` (no form to fill), and grants are implicit (no
 * consent screen), so a test or a browser only follows redirects. Claims come from the userinfo
 * endpoint (conformIdTokenClaims), as with many real providers.
 */
export async function startExternalIdp(options: { redirectUris: string[] }): Promise<ExternalIdp> {
  const accounts = new Map<string, IdpAccount>();
  let current: string | undefined;
  const clientId = `palisade-${randomUUID().slice(0, 8)}`;
  const clientSecret = `secret-${randomUUID()}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: [randomUUID()] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'given_name', 'family_name'],
    },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ ...account }) };
    },
    // Every authorization is granted what it asks: no consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientIdOf = ctx.oidc.client?.clientId;
      if (!accountId || !clientIdOf) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: clientIdOf, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    void (async () => {
      if (req.url?.startsWith('/interaction/')) {
        try {
          await provider.interactionDetails(req, res);
          if (!current || !accounts.has(current)) {
            await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'no such account' });
            return;
          }
          await provider.interactionFinished(req, res, { login: { accountId: current } }, { mergeWithLastSubmission: false });
        } catch (err) {
          res.statusCode = 400;
          res.end(String(err));
        }
        return;
      }
      callback(req, res);
    })();
  });

  return {
    issuer,
    clientId,
    clientSecret,
    setAccount: (account) => accounts.set(account.sub, account),
    signInAs: (sub) => {
      current = sub;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Follows the identity provider's redirects (with its cookies), as a browser would, until it sends
 * the browser back to `redirectUri`; returns that URL (with `code`, `state`, `iss`).
 */
export async function followIdpRedirects(authorizationUrl: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = (pair ?? '').split('=');
      if (k) jar.set(k.trim(), v.join('='));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the identity provider answered ${res.status} without a redirect: ${await res.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(redirectUri)) return next;
    url = next.href;
  }
  throw new Error('too many redirects at the identity provider');
}
