import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { type DirectoryData, FAKE_PAGE_SIZE, type FakeServer, bearerOf, oauthError, startFakeServer, verifyJwt } from './directory-data.js';

export const GOOGLE_SCOPES_REQUIRED = [
  'https://www.googleapis.com/auth/admin.directory.user.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.member.readonly',
];

export interface FakeGoogle extends FakeServer {
  /** A service-account key file whose token_uri is this server's token endpoint. */
  keyFile: string;
  /** A key file with the same client_email but another key (the server refuses its assertions). */
  wrongKeyFile: string;
}

/**
 * The Admin SDK Directory API and Google's token endpoint: a service-account JWT (RS256, `sub`
 * the delegated admin) is verified with the account's public key; `users`, `groups` and
 * `groups/{key}/members` page with `pageToken`/`nextPageToken`.
 */
export async function startFakeGoogle(data: DirectoryData, adminEmail: string): Promise<FakeGoogle> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = 'palisade-sync@example-project.iam.gserviceaccount.com';
  const tokens = new Set<string>();
  let tokenUri = '';
  const server = await startFakeServer((base) => {
    tokenUri = `${base}/token`;
    const page = <T>(items: T[], url: URL, field: string) => {
      const offset = Number(url.searchParams.get('pageToken') ?? '0');
      const next = offset + FAKE_PAGE_SIZE < items.length ? String(offset + FAKE_PAGE_SIZE) : undefined;
      return {
        status: 200,
        body: { kind: 'admin#directory', [field]: items.slice(offset, offset + FAKE_PAGE_SIZE), ...(next ? { nextPageToken: next } : {}) },
      };
    };
    return (req, url, body) => {
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return oauthError('unsupported_grant_type', 'grant');
        const claims = verifyJwt(form.get('assertion') ?? '', publicKey);
        if (typeof claims === 'string') return { status: 400, body: { error: 'invalid_grant', error_description: claims } };
        if (claims.iss !== clientEmail || claims.aud !== tokenUri)
          return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT: iss or aud' } };
        if (claims.sub !== adminEmail)
          return {
            status: 401,
            body: {
              error: 'unauthorized_client',
              error_description:
                'Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.',
            },
          };
        const scopes = String(claims.scope ?? '').split(' ');
        if (!GOOGLE_SCOPES_REQUIRED.every((s) => scopes.includes(s)))
          return { status: 400, body: { error: 'invalid_scope', error_description: 'missing scope' } };
        const token = randomUUID();
        tokens.add(token);
        return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600 } };
      }
      const token = bearerOf(req);
      if (!token || !tokens.has(token))
        return { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.' } } };
      const path = url.pathname;
      if (path === '/admin/directory/v1/users' && url.searchParams.get('customer') === 'my_customer') {
        const users = data.users.map((u) => ({ kind: 'admin#directory#user', id: u.id, primaryEmail: u.email, suspended: !u.active }));
        return page(users, url, 'users');
      }
      if (path === '/admin/directory/v1/groups' && url.searchParams.get('customer') === 'my_customer') {
        return page(
          data.groups.map((g) => ({ id: g.id, name: g.name, email: `${g.id}@example.com` })),
          url,
          'groups',
        );
      }
      const members = /^\/admin\/directory\/v1\/groups\/([^/]+)\/members$/.exec(path);
      if (members) {
        const group = data.groups.find((g) => g.id === decodeURIComponent(members[1] ?? ''));
        if (!group) return { status: 404, body: { error: { code: 404, message: 'Resource Not Found: groupKey' } } };
        return page(
          group.members.map((id) => ({ kind: 'admin#directory#member', id, type: 'USER', status: 'ACTIVE' })),
          url,
          'members',
        );
      }
      return { status: 404, body: { error: { code: 404, message: 'Not Found' } } };
    };
  });
  const keyFile = (key: typeof privateKey) =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'example-project',
      private_key_id: 'key-1',
      private_key: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: '1234567890',
      token_uri: tokenUri,
    });
  return { ...server, keyFile: keyFile(privateKey), wrongKeyFile: keyFile(other.privateKey) };
}
