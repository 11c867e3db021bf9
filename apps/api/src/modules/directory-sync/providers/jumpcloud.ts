import {
  type DirectoryClient,
  DirectoryError,
  type DirectoryGroup,
  type DirectoryUser,
  MAX_PAGES,
  requestJson,
  trimSlash,
} from './directory-client.js';

/** The JumpCloud API (https://docs.jumpcloud.com/api/). */
export const JUMPCLOUD_API_URL = 'https://console.jumpcloud.com';
const PAGE_SIZE = 100;

export interface JumpCloudOptions {
  apiKey: string;
  /** The API origin; only tests change it. */
  apiUrl?: string | undefined;
}

export function jumpcloudDirectory(options: JumpCloudOptions): DirectoryClient {
  if (!options.apiKey) throw new DirectoryError('JumpCloud needs an API key');
  const api = trimSlash(options.apiUrl ?? JUMPCLOUD_API_URL);
  const headers = { 'x-api-key': options.apiKey };
  /**
   * skip/limit paging until a page comes back empty or `totalCount` (v1) is reached; `skip`
   * advances by what came back, since the server may cap `limit` below what was asked.
   */
  const pages = async <T>(what: string, path: string, pick: (body: unknown) => T[] | undefined): Promise<T[]> => {
    const all: T[] = [];
    for (let n = 0; ; n++) {
      if (n >= MAX_PAGES) throw new DirectoryError(`The directory returned more than ${MAX_PAGES} pages`);
      const url = `${api}${path}${path.includes('?') ? '&' : '?'}limit=${PAGE_SIZE}&skip=${all.length}`;
      const body = await requestJson<unknown>(what, url, { headers });
      const items = pick(body);
      if (!Array.isArray(items)) throw new DirectoryError(`${what} answered with something that is not a list`);
      all.push(...items);
      const total = (body as { totalCount?: unknown }).totalCount;
      if (items.length === 0 || (typeof total === 'number' && all.length >= total)) return all;
    }
  };
  return {
    async listUsers(): Promise<DirectoryUser[]> {
      type User = { _id: string; email?: string; suspended?: boolean; state?: string };
      const users = await pages<User>('Listing JumpCloud users', '/api/systemusers', (b) => (b as { results?: User[] }).results);
      return users.map((u) => ({ id: u._id, email: u.email ?? '', isActive: !u.suspended && u.state !== 'SUSPENDED' }));
    },
    async listGroups(): Promise<DirectoryGroup[]> {
      type Group = { id: string; name?: string };
      const groups = await pages<Group>('Listing JumpCloud groups', '/api/v2/usergroups', (b) => b as Group[]);
      return groups.map((g) => ({ id: g.id, name: g.name ?? '' }));
    },
    async listGroupMembers(group: DirectoryGroup): Promise<string[]> {
      type Member = { to?: { id?: string; type?: string } };
      const path = `/api/v2/usergroups/${encodeURIComponent(group.id)}/members`;
      const members = await pages<Member>(`Listing the members of JumpCloud group ${group.name}`, path, (b) => b as Member[]);
      return members.filter((m) => m.to?.type === 'user' && m.to.id).map((m) => m.to?.id as string);
    },
  };
}
