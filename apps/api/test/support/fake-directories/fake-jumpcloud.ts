import { type DirectoryData, FAKE_PAGE_SIZE, type FakeServer, startFakeServer } from './directory-data.js';

/**
 * The JumpCloud API with an `x-api-key`: `/api/systemusers` (v1: `{totalCount, results}`),
 * `/api/v2/usergroups` and `/api/v2/usergroups/{id}/members` (v2: plain arrays), all paged with
 * `skip`/`limit`. The server caps `limit` at FAKE_PAGE_SIZE, as JumpCloud caps it at 100.
 */
export async function startFakeJumpCloud(data: DirectoryData, apiKey: string): Promise<FakeServer> {
  return startFakeServer(() => (req, url) => {
    if (req.headers['x-api-key'] !== apiKey) return { status: 401, body: { message: 'Unauthorized' } };
    const skip = Number(url.searchParams.get('skip') ?? '0');
    const limit = Math.min(Number(url.searchParams.get('limit') ?? '10'), FAKE_PAGE_SIZE);
    const slice = <T>(items: T[]) => items.slice(skip, skip + limit);
    if (url.pathname === '/api/systemusers') {
      const users = data.users.map((u) => ({
        _id: u.id,
        email: u.email,
        username: u.email.split('@')[0],
        suspended: !u.active,
        state: u.active ? 'ACTIVATED' : 'SUSPENDED',
        activated: true,
      }));
      return { status: 200, body: { totalCount: users.length, results: slice(users) } };
    }
    if (url.pathname === '/api/v2/usergroups')
      return { status: 200, body: slice(data.groups.map((g) => ({ id: g.id, name: g.name, type: 'user_group' }))) };
    const members = /^\/api\/v2\/usergroups\/([^/]+)\/members$/.exec(url.pathname);
    if (members) {
      const group = data.groups.find((g) => g.id === decodeURIComponent(members[1] ?? ''));
      if (!group) return { status: 404, body: { message: 'Not Found' } };
      return { status: 200, body: slice(group.members.map((id) => ({ attributes: null, to: { attributes: null, id, type: 'user' } }))) };
    }
    return { status: 404, body: { message: 'Not Found' } };
  });
}
