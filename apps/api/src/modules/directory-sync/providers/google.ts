import {
  cachedToken,
  collectPages,
  type DirectoryClient,
  DirectoryError,
  type DirectoryGroup,
  type DirectoryUser,
  fetchAccessToken,
  requestJson,
  trimSlash,
} from './directory-client.js';
import { parsePrivateKey, signJwt } from './jwt.js';

/** The Admin SDK Directory API (https://developers.google.com/admin-sdk/directory/reference/rest). */
export const GOOGLE_API_URL = 'https://admin.googleapis.com';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const GOOGLE_SCOPES = [
  'https://www.googleapis.com/auth/admin.directory.user.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.member.readonly',
];
const PAGE_SIZE = '200';

interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
}

/** The fields of a service-account key file the client needs; anything else is refused with the reason. */
export function parseServiceAccountKey(json: string): ServiceAccountKey {
  let key: Partial<ServiceAccountKey> & { type?: string };
  try {
    key = JSON.parse(json) as typeof key;
  } catch {
    throw new DirectoryError('The service account key file is not JSON');
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    throw new DirectoryError('The service account key file has no client_email or private_key');
  }
  return key as ServiceAccountKey;
}

export interface GoogleOptions {
  serviceAccountKey: string;
  /** The Workspace administrator the service account acts for (domain-wide delegation). */
  adminEmail: string;
  /** The API origin; only tests change it (the token endpoint comes from the key file). */
  apiUrl?: string | undefined;
}

type GooglePage<K extends string, T> = { [key in K]?: T[] } & { nextPageToken?: string };

export function googleDirectory(options: GoogleOptions): DirectoryClient {
  if (!options.adminEmail) throw new DirectoryError('Google needs the email of a Workspace administrator (admin_email)');
  const key = parseServiceAccountKey(options.serviceAccountKey);
  const privateKey = parsePrivateKey(key.private_key, 'The service account private_key');
  const tokenUrl = key.token_uri ?? GOOGLE_TOKEN_URL;
  const api = `${trimSlash(options.apiUrl ?? GOOGLE_API_URL)}/admin/directory/v1`;
  const token = cachedToken(() => {
    const assertion = signJwt(
      privateKey,
      { iss: key.client_email, sub: options.adminEmail, scope: GOOGLE_SCOPES.join(' '), aud: tokenUrl },
      { ...(key.private_key_id ? { kid: key.private_key_id } : {}), lifetimeSeconds: 3600 },
    );
    return fetchAccessToken(tokenUrl, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
  });
  const pages = <K extends string, T>(what: string, path: string, field: K, query: Record<string, string> = {}) =>
    collectPages<T, string>('', async (pageToken) => {
      const params = new URLSearchParams({ ...query, maxResults: PAGE_SIZE, ...(pageToken ? { pageToken } : {}) });
      const body = await requestJson<GooglePage<K, T>>(what, `${api}/${path}?${params}`, {
        headers: { authorization: `Bearer ${await token()}` },
      });
      return { items: body[field] ?? [], next: body.nextPageToken || undefined };
    });
  return {
    async listUsers(): Promise<DirectoryUser[]> {
      type User = { id: string; primaryEmail: string; suspended?: boolean; archived?: boolean };
      const users = await pages<'users', User>('Listing Google users', 'users', 'users', { customer: 'my_customer' });
      return users.map((u) => ({ id: u.id, email: u.primaryEmail, isActive: !u.suspended && !u.archived }));
    },
    async listGroups(): Promise<DirectoryGroup[]> {
      type Group = { id: string; name: string; email: string };
      const groups = await pages<'groups', Group>('Listing Google groups', 'groups', 'groups', { customer: 'my_customer' });
      return groups.map((g) => ({ id: g.id, name: g.name || g.email }));
    },
    async listGroupMembers(group: DirectoryGroup): Promise<string[]> {
      type Member = { id: string; type?: string };
      const path = `groups/${encodeURIComponent(group.id)}/members`;
      const members = await pages<'members', Member>(`Listing the members of Google group ${group.name}`, path, 'members');
      return members.filter((m) => m.type === undefined || m.type === 'USER').map((m) => m.id);
    },
  };
}
