import { generateKeyPairSync, type JsonWebKey, randomUUID } from 'node:crypto';
import { type DirectoryData, FAKE_PAGE_SIZE, type FakeServer, bearerOf, startFakeServer, verifyJwt } from './directory-data.js';

export interface FakeOkta extends FakeServer {
  /** The service app's private JWK (JSON), as the Okta admin console offers it. */
  privateJwk: string;
  /** Another key: the server refuses its assertions (invalid signature). */
  wrongJwk: string;
}

/**
 * An Okta org: `private_key_jwt` client credentials at `/oauth2/v1/token` (the assertion is
 * verified with the app's public key; scopes `okta.users.read okta.groups.read`), and
 * `/api/v1/users`, `/api/v1/groups`, `/api/v1/groups/{id}/users` paged with `Link: rel="next"`.
 * Like Okta, `/api/v1/users` leaves out DEPROVISIONED users.
 */
export async function startFakeOkta(data: DirectoryData & { statuses?: Record<string, string> }, clientId: string): Promise<FakeOkta> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const tokens = new Set<string>();
  const server = await startFakeServer((base) => {
    const page = (items: unknown[], url: URL) => {
      const offset = Number(url.searchParams.get('after') ?? '0');
      const limit = Math.min(Number(url.searchParams.get('limit') ?? '200'), FAKE_PAGE_SIZE);
      const headers: Record<string, string> = {};
      const self = `<${base}${url.pathname}${url.search}>; rel="self"`;
      if (offset + limit < items.length) {
        const next = new URL(url.toString());
        next.searchParams.set('after', String(offset + limit));
        headers.link = `${self}, <${base}${next.pathname}${next.search}>; rel="next"`;
      } else headers.link = self;
      return { status: 200, body: items.slice(offset, offset + limit), headers };
    };
    const tokenUrl = `${base}/oauth2/v1/token`;
    return (req, url, body) => {
      if (req.method === 'POST' && url.pathname === '/oauth2/v1/token') {
        const form = new URLSearchParams(body);
        const bad = (description: string) => ({ status: 401, body: { error: 'invalid_client', error_description: description } });
        if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
          return bad('client_assertion_type');
        const claims = verifyJwt(form.get('client_assertion') ?? '', publicKey);
        if (typeof claims === 'string') return bad(`The client_assertion signature is invalid (${claims}).`);
        if (claims.iss !== clientId || claims.sub !== clientId) return bad('Invalid value for client_id.');
        if (claims.aud !== tokenUrl)
          return bad('The audience claim for client_assertion must be the endpoint invoking the client_assertion.');
        const scopes = (form.get('scope') ?? '').split(' ');
        if (!scopes.includes('okta.users.read') || !scopes.includes('okta.groups.read'))
          return { status: 400, body: { error: 'invalid_scope', error_description: 'The requested scope is invalid' } };
        const token = randomUUID();
        tokens.add(token);
        return { status: 200, body: { token_type: 'Bearer', expires_in: 3600, access_token: token, scope: form.get('scope') } };
      }
      const token = bearerOf(req);
      if (!token || !tokens.has(token)) return { status: 401, body: { errorCode: 'E0000011', errorSummary: 'Invalid token provided' } };
      const statusOf = (id: string, active: boolean) => data.statuses?.[id] ?? (active ? 'ACTIVE' : 'SUSPENDED');
      if (url.pathname === '/api/v1/users') {
        const users = data.users
          .map((u) => ({ id: u.id, status: statusOf(u.id, u.active), profile: { email: u.email, login: u.email } }))
          .filter((u) => u.status !== 'DEPROVISIONED');
        return page(users, url);
      }
      if (url.pathname === '/api/v1/groups')
        return page(
          data.groups.map((g) => ({ id: g.id, type: 'OKTA_GROUP', profile: { name: g.name } })),
          url,
        );
      const members = /^\/api\/v1\/groups\/([^/]+)\/users$/.exec(url.pathname);
      if (members) {
        const group = data.groups.find((g) => g.id === decodeURIComponent(members[1] ?? ''));
        if (!group) return { status: 404, body: { errorCode: 'E0000007', errorSummary: 'Not found: Resource not found' } };
        return page(
          group.members.map((id) => ({ id })),
          url,
        );
      }
      return { status: 404, body: { errorCode: 'E0000022', errorSummary: 'The endpoint does not support the provided HTTP method' } };
    };
  });
  const jwk = (key: typeof privateKey, kid: string) =>
    JSON.stringify({ ...(key.export({ format: 'jwk' }) as JsonWebKey), kid, alg: 'RS256', use: 'sig' });
  return { ...server, privateJwk: jwk(privateKey, 'okta-key-1'), wrongJwk: jwk(other.privateKey, 'okta-key-2') };
}
