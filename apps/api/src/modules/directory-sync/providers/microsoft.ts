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

/** Microsoft Graph (https://learn.microsoft.com/graph/api/user-list). */
export const GRAPH_API_URL = 'https://graph.microsoft.com';

/**
 * The tenant's token endpoint from the provider's base URL, the issuer
 * `https://login.microsoftonline.com/<tenant>/v2.0`: `…/<tenant>/oauth2/v2.0/token`.
 */
export function microsoftTokenUrl(baseUrl: string): string {
  const authority = trimSlash(baseUrl).replace(/\/v2\.0$/, '');
  if (new URL(authority).pathname.split('/').filter(Boolean).length === 0) {
    throw new DirectoryError('The base URL names no tenant (https://login.microsoftonline.com/<tenant>/v2.0)');
  }
  return `${authority}/oauth2/v2.0/token`;
}

export interface MicrosoftOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The Graph origin; only tests change it. */
  graphUrl?: string | undefined;
}

interface GraphPage<T> {
  value?: T[];
  '@odata.nextLink'?: string;
}

export function microsoftDirectory(options: MicrosoftOptions): DirectoryClient {
  if (!options.clientSecret) throw new DirectoryError('Microsoft needs the client secret of the app registration');
  const tokenUrl = microsoftTokenUrl(options.baseUrl);
  const graph = `${trimSlash(options.graphUrl ?? GRAPH_API_URL)}/v1.0`;
  const graphOrigin = new URL(graph).origin;
  const token = cachedToken(() =>
    fetchAccessToken(tokenUrl, {
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
      scope: `${GRAPH_API_URL}/.default`,
    }),
  );
  const pages = <T>(what: string, firstUrl: string) =>
    collectPages<T, string>(firstUrl, async (url) => {
      // A next link must stay on Graph: the bearer token goes with it.
      if (new URL(url).origin !== graphOrigin) throw new DirectoryError(`${what}: the next page link leaves Microsoft Graph`);
      const body = await requestJson<GraphPage<T>>(what, url, { headers: { authorization: `Bearer ${await token()}` } });
      return { items: body.value ?? [], next: body['@odata.nextLink'] || undefined };
    });
  return {
    async listUsers(): Promise<DirectoryUser[]> {
      type User = { id: string; mail?: string | null; userPrincipalName?: string; accountEnabled?: boolean };
      const users = await pages<User>(
        'Listing Microsoft users',
        `${graph}/users?$select=id,mail,userPrincipalName,accountEnabled&$top=999`,
      );
      return users.map((u) => ({ id: u.id, email: u.mail || u.userPrincipalName || '', isActive: u.accountEnabled !== false }));
    },
    async listGroups(): Promise<DirectoryGroup[]> {
      type Group = { id: string; displayName?: string | null };
      const groups = await pages<Group>('Listing Microsoft groups', `${graph}/groups?$select=id,displayName&$top=999`);
      return groups.map((g) => ({ id: g.id, name: g.displayName ?? '' }));
    },
    async listGroupMembers(group: DirectoryGroup): Promise<string[]> {
      type Member = { id: string; '@odata.type'?: string };
      const url = `${graph}/groups/${encodeURIComponent(group.id)}/members?$select=id&$top=999`;
      const members = await pages<Member>(`Listing the members of Microsoft group ${group.name}`, url);
      return members.filter((m) => (m['@odata.type'] ?? '#microsoft.graph.user') === '#microsoft.graph.user').map((m) => m.id);
    },
  };
}
