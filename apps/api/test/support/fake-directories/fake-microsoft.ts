import { randomUUID } from 'node:crypto';
import { type DirectoryData, FAKE_PAGE_SIZE, type FakeServer, bearerOf, oauthError, startFakeServer } from './directory-data.js';

export interface FakeMicrosoft extends FakeServer {
  /** The provider's base URL: `<server>/<tenant>/v2.0`, as the login.microsoftonline.com issuer. */
  baseUrl: string;
}

/**
 * Microsoft identity platform client credentials (`/<tenant>/oauth2/v2.0/token`, scope
 * `https://graph.microsoft.com/.default`) and Graph `/v1.0/users`, `/v1.0/groups`,
 * `/v1.0/groups/{id}/members`, paged with `@odata.nextLink`.
 */
export async function startFakeMicrosoft(
  data: DirectoryData,
  client: { id: string; secret: string; tenant: string },
): Promise<FakeMicrosoft> {
  const tokens = new Set<string>();
  const server = await startFakeServer((base) => {
    const page = (items: unknown[], url: URL) => {
      const offset = Number(url.searchParams.get('$skiptoken') ?? '0');
      const next = new URL(url.toString());
      next.searchParams.set('$skiptoken', String(offset + FAKE_PAGE_SIZE));
      const more = offset + FAKE_PAGE_SIZE < items.length;
      return {
        status: 200,
        body: {
          value: items.slice(offset, offset + FAKE_PAGE_SIZE),
          ...(more ? { '@odata.nextLink': `${base}${next.pathname}${next.search}` } : {}),
        },
      };
    };
    return (req, url, body) => {
      if (req.method === 'POST' && url.pathname === `/${client.tenant}/oauth2/v2.0/token`) {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'client_credentials') return oauthError('unsupported_grant_type', 'AADSTS70003');
        if (form.get('client_id') !== client.id)
          return {
            status: 400,
            body: {
              error: 'unauthorized_client',
              error_description: `AADSTS700016: Application with identifier '${form.get('client_id')}' was not found in the directory.`,
            },
          };
        if (form.get('client_secret') !== client.secret)
          return oauthError('invalid_client', 'AADSTS7000215: Invalid client secret provided.');
        if (form.get('scope') !== 'https://graph.microsoft.com/.default')
          return { status: 400, body: { error: 'invalid_scope', error_description: 'AADSTS1002012' } };
        const token = randomUUID();
        tokens.add(token);
        return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, access_token: token } };
      }
      const token = bearerOf(req);
      if (!token || !tokens.has(token))
        return { status: 401, body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token validation failure.' } } };
      if (url.pathname === '/v1.0/users') {
        return page(
          data.users.map((u) => ({ id: u.id, mail: u.email, userPrincipalName: u.email.replace('@', '_x@'), accountEnabled: u.active })),
          url,
        );
      }
      if (url.pathname === '/v1.0/groups')
        return page(
          data.groups.map((g) => ({ id: g.id, displayName: g.name })),
          url,
        );
      const members = /^\/v1\.0\/groups\/([^/]+)\/members$/.exec(url.pathname);
      if (members) {
        const group = data.groups.find((g) => g.id === decodeURIComponent(members[1] ?? ''));
        if (!group) return { status: 404, body: { error: { code: 'Request_ResourceNotFound', message: 'Resource does not exist' } } };
        return page(
          group.members.map((id) => ({ '@odata.type': '#microsoft.graph.user', id })),
          url,
        );
      }
      return { status: 404, body: { error: { code: 'BadRequest', message: 'Resource not found for the segment' } } };
    };
  });
  return { ...server, baseUrl: `${server.url}/${client.tenant}/v2.0` };
}
