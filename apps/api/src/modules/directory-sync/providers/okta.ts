import {
  cachedToken,
  collectPages,
  type DirectoryClient,
  DirectoryError,
  type DirectoryGroup,
  type DirectoryUser,
  fetchAccessToken,
  request,
  trimSlash,
} from './directory-client.js';
import { parsePrivateKey, signJwt } from './jwt.js';

/** The Okta management API scopes the service app is granted (docs/directory-sync.md). */
export const OKTA_SCOPES = 'okta.users.read okta.groups.read';
const PAGE_SIZE = '200';
/** Okta statuses of an account that cannot sign in any more. */
const INACTIVE_STATUSES = new Set(['SUSPENDED', 'DEPROVISIONED']);

export interface OktaOptions {
  /** The org URL (`https://<org>.okta.com`); an authorization-server path in it is ignored. */
  baseUrl: string;
  /** The service app's client id. */
  clientId: string;
  /** The service app's private JWK (JSON). */
  privateJwk: string;
}

/** The URL in a `Link: <…>; rel="next"` header, if any. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match?.[1]) return match[1];
  }
  return undefined;
}

function parseJwk(json: string): Record<string, unknown> {
  try {
    const jwk = JSON.parse(json) as unknown;
    if (jwk && typeof jwk === 'object' && !Array.isArray(jwk)) return jwk as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new DirectoryError('The Okta private key is not a JWK (JSON)');
}

export function oktaDirectory(options: OktaOptions): DirectoryClient {
  if (!options.clientId) throw new DirectoryError('Okta needs the client id of the service app (okta_client_id)');
  const jwk = parseJwk(options.privateJwk);
  const key = parsePrivateKey(jwk, 'The Okta JWK');
  const org = trimSlash(new URL(options.baseUrl).origin);
  const tokenUrl = `${org}/oauth2/v1/token`;
  const token = cachedToken(() => {
    const assertion = signJwt(
      key,
      { iss: options.clientId, sub: options.clientId, aud: tokenUrl },
      typeof jwk.kid === 'string' ? { kid: jwk.kid } : {},
    );
    return fetchAccessToken(tokenUrl, {
      grant_type: 'client_credentials',
      scope: OKTA_SCOPES,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    });
  });
  const pages = <T>(what: string, path: string) =>
    collectPages<T, string>(`${org}${path}${path.includes('?') ? '&' : '?'}limit=${PAGE_SIZE}`, async (url) => {
      // A next link must stay on the org: the bearer token goes with it.
      if (new URL(url).origin !== new URL(org).origin) throw new DirectoryError(`${what}: the next page link leaves the Okta org`);
      const response = await request(what, url, { headers: { accept: 'application/json', authorization: `Bearer ${await token()}` } });
      const items = (await response.json().catch(() => undefined)) as T[] | undefined;
      if (!Array.isArray(items)) throw new DirectoryError(`${what} answered with something that is not a list`);
      return { items, next: nextLink(response.headers.get('link')) };
    });
  return {
    async listUsers(): Promise<DirectoryUser[]> {
      type User = { id: string; status?: string; profile?: { email?: string; login?: string } };
      const users = await pages<User>('Listing Okta users', '/api/v1/users');
      return users.map((u) => ({
        id: u.id,
        email: u.profile?.email ?? u.profile?.login ?? '',
        isActive: !INACTIVE_STATUSES.has(u.status ?? ''),
      }));
    },
    async listGroups(): Promise<DirectoryGroup[]> {
      type Group = { id: string; profile?: { name?: string } };
      const groups = await pages<Group>('Listing Okta groups', '/api/v1/groups');
      return groups.map((g) => ({ id: g.id, name: g.profile?.name ?? '' }));
    },
    async listGroupMembers(group: DirectoryGroup): Promise<string[]> {
      const members = await pages<{ id: string }>(
        `Listing the members of Okta group ${group.name}`,
        `/api/v1/groups/${encodeURIComponent(group.id)}/users`,
      );
      return members.map((m) => m.id);
    },
  };
}
