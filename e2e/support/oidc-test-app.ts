import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';

/**
 * A test-only OpenID Connect relying party: a tiny web app on loopback that signs its visitor in
 * with Palisade through `openid-client` (discovery, code + PKCE, state and nonce, ID token
 * validation) and shows the ID token's claims. One visitor at a time (the e2e spec's browser).
 *
 * - `/`: a "Sign in with Palisade" link to `/login`
 * - `/login`: sends the browser to Palisade's authorization endpoint
 * - `/callback`: redeems the code; shows the claims (`data-testid="claims"`, JSON)
 * - `/refresh`: uses the refresh token; says whether it worked
 */
export interface OidcTestApp {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  redirectUri: string;
  /** Tell the app its client ID and secret (after the admin registered it), then discover the provider. */
  configure(clientId: string, clientSecret: string): Promise<void>;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startOidcTestApp(issuer: string, scope: string): Promise<OidcTestApp> {
  let config: client.Configuration | undefined;
  let pending: { verifier: string; state: string; nonce: string } | undefined;
  let refreshToken: string | undefined;
  let origin = '';

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, html: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(html);
    };
    const handle = async () => {
      if (!config) return send(503, page('Not configured', ''));
      if (url.pathname === '/') return send(200, page('Test app', '<a href="/login">Sign in with Palisade</a>'));
      if (url.pathname === '/login') {
        const verifier = client.randomPKCECodeVerifier();
        pending = { verifier, state: client.randomState(), nonce: client.randomNonce() };
        const target = client.buildAuthorizationUrl(config, {
          redirect_uri: `${origin}/callback`,
          scope,
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: pending.state,
          nonce: pending.nonce,
        });
        return send(302, '', { location: target.href });
      }
      if (url.pathname === '/callback') {
        if (url.searchParams.get('error'))
          return send(200, page('Sign-in refused', `<p>${escapeHtml(url.searchParams.get('error') ?? '')}</p>`));
        const expected = pending;
        pending = undefined;
        if (!expected) return send(400, page('No sign-in started', ''));
        const tokens = await client.authorizationCodeGrant(config, url, {
          pkceCodeVerifier: expected.verifier,
          expectedState: expected.state,
          expectedNonce: expected.nonce,
        });
        refreshToken = tokens.refresh_token;
        const claims = JSON.stringify(tokens.claims() ?? {});
        return send(200, page('Signed in', `<pre data-testid="claims">${escapeHtml(claims)}</pre><a href="/refresh">Refresh tokens</a>`));
      }
      if (url.pathname === '/refresh') {
        try {
          const tokens = await client.refreshTokenGrant(config, refreshToken ?? '');
          refreshToken = tokens.refresh_token;
          return send(200, page('Refresh worked', ''));
        } catch (error) {
          const code = (error as { error?: string }).error ?? String(error);
          return send(200, page('Refresh failed', `<p data-testid="error">${escapeHtml(code)}</p>`));
        }
      }
      return send(404, page('Not found', ''));
    };
    handle().catch((error: unknown) => send(500, page('Error', `<pre>${escapeHtml(String(error))}</pre>`)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    redirectUri: `${origin}/callback`,
    async configure(clientId, clientSecret) {
      config = await client.discovery(new URL(issuer), clientId, { client_secret: clientSecret }, client.ClientSecretBasic(clientSecret), {
        execute: [client.allowInsecureRequests],
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
