import { type Access, ROUTE_ACCESS, type RouteRule } from '@palisade/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupMembers, groups } from '#src/db/schema/index.js';
import { type HttpMethod, snapshot, type TestApp, USER_PASSWORD } from '#test/helpers.js';
import { type RouteWalk, startRouteWalk } from '#test/route-walk.js';
import { createLocation, newKey } from '#test/network-fixtures.js';

/**
 * ARCHITECTURE.md §4: walk every registered `/api/v1` route and check it against the permission
 * table for an anonymous caller, a user acting on themselves, a user acting on someone else, and
 * an admin. Each call gets its own disposable users, group and session, so destructive calls
 * (delete, disable, logout, password changes) cannot affect the others and the order is free.
 */

type Actor = 'anonymous' | 'self' | 'other' | 'admin';
const ACTORS: Actor[] = ['anonymous', 'self', 'other', 'admin'];

interface Fixture {
  n: number;
  /** The signed-in non-admin user. */
  user: string;
  /** Another non-admin user, member of `group`. */
  other: string;
  userId: number;
  /** An admin (member of group admin). */
  admin: string;
  adminId: number;
  group: string;
}

const NEW_PASSWORD = 'Walk3r-new!pass';

/** A body that is valid for the route where possible; `{}` for routes this test does not know. */
function bodyFor(key: string, f: Fixture, target: string): unknown {
  const person = (username: string) => ({ username, first_name: 'Walk', last_name: 'Er', email: `${username}@walk.example` });
  switch (key) {
    case 'POST /api/v1/auth':
      return { username: f.user, password: USER_PASSWORD };
    case 'PUT /api/v1/settings':
      return {
        instance_name: `Walk ${f.n}`,
        main_logo_url: '',
        nav_logo_url: '',
        wireguard_enabled: true,
        webhooks_enabled: true,
        worker_enabled: true,
        openid_enabled: true,
      };
    case 'PATCH /api/v1/settings':
      return { instance_name: `Walk ${f.n}` };
    case 'POST /api/v1/user':
      return { ...person(`created${f.n}`), password: NEW_PASSWORD };
    case 'POST /api/v1/user/available':
      return { username: `free${f.n}` };
    case 'PUT /api/v1/user/change_password':
      return { old_password: USER_PASSWORD, new_password: NEW_PASSWORD };
    case 'PUT /api/v1/user/:username':
      return person(target);
    case 'PUT /api/v1/user/:username/password':
      return { new_password: NEW_PASSWORD };
    case 'POST /api/v1/group':
      return { name: `newgroup${f.n}` };
    case 'PUT /api/v1/group/:name':
      return { name: f.group };
    case 'POST /api/v1/groups-assign':
      return { groups: [f.group], users: [f.user] };
    case 'POST /api/v1/group/:group':
      return { username: f.user };
    default:
      return {};
  }
}

function urlFor(pattern: string, f: Fixture, target: string): string {
  return pattern.replace(/:(\w+)/g, (_m, param: string) => {
    if (param === 'username') return target;
    if (param === 'name' || param === 'group') return f.group;
    return '1';
  });
}

/** Routes whose valid bodies this file knows (the identity slice); later routes get `{}`. */
const IDENTITY_ROUTES = new Set([
  'GET /api/v1/health',
  'GET /api/v1/openapi.json',
  'GET /api/v1/info',
  'GET /api/v1/settings_essentials',
  'GET /api/v1/settings',
  'PUT /api/v1/settings',
  'PATCH /api/v1/settings',
  'POST /api/v1/auth',
  'POST /api/v1/auth/logout',
  'GET /api/v1/me',
  'GET /api/v1/user',
  'POST /api/v1/user',
  'POST /api/v1/user/available',
  'PUT /api/v1/user/change_password',
  'GET /api/v1/user/:username',
  'PUT /api/v1/user/:username',
  'DELETE /api/v1/user/:username',
  'PUT /api/v1/user/:username/password',
  'GET /api/v1/group-info',
  'GET /api/v1/group',
  'POST /api/v1/group',
  'GET /api/v1/group/:name',
  'PUT /api/v1/group/:name',
  'DELETE /api/v1/group/:name',
  'POST /api/v1/groups-assign',
  'POST /api/v1/group/:group',
  'DELETE /api/v1/group/:group/user/:username',
]);

/**
 * Routes outside `/api/v1` (no permission-table entry; the console's files come on top when it is
 * built): the public API documentation, and GET /metrics, which takes METRICS_TOKEN as a bearer
 * token (ADR-009).
 */
const OUTSIDE_API_ROUTES: string[] = [
  'GET /api/docs',
  'GET /api/docs/json',
  'GET /api/docs/static/*',
  'GET /api/docs/static/index.html',
  'GET /api/docs/static/swagger-initializer.js',
  'GET /api/docs/yaml',
  'GET /metrics',
];

/** What each access level promises for each actor: 'allowed' = neither 401 nor 403. */
const EXPECTED: Record<Access, Record<Actor, 401 | 403 | 'allowed'>> = {
  public: { anonymous: 'allowed', self: 'allowed', other: 'allowed', admin: 'allowed' },
  user: { anonymous: 401, self: 'allowed', other: 'allowed', admin: 'allowed' },
  self_or_admin: { anonymous: 401, self: 'allowed', other: 403, admin: 'allowed' },
  // Object ownership (which device is whose) is checked by the service and proven by the
  // cross-user cases in devices.int.test.ts; here ids name no object of the caller.
  owner_or_admin: { anonymous: 401, self: 'allowed', other: 'allowed', admin: 'allowed' },
  admin: { anonymous: 401, self: 403, other: 403, admin: 'allowed' },
  // The MFA sign-in steps take only a pending-MFA session (mfa.int.test.ts signs in that far).
  mfa_pending: { anonymous: 401, self: 401, other: 401, admin: 401 },
  // Provisioning stations only: no session, whoever it is, passes (workers.int.test.ts signs in as a station).
  worker: { anonymous: 401, self: 401, other: 401, admin: 401 },
};

describe('route-walking authorization', () => {
  let t: TestApp;
  let walk: RouteWalk;
  let counter = 0;

  beforeAll(async () => {
    walk = await startRouteWalk();
    t = walk.t;
  });
  afterAll(() => t.close());

  const apiRoutes = () => walk.apiRouteKeys();

  it('every registered /api/v1 route has a permission entry, and every entry a route', () => {
    const routes = new Set(apiRoutes());
    expect(routes.size).toBeGreaterThanOrEqual(Object.keys(ROUTE_ACCESS).length);
    expect([...routes].filter((k) => !(k in ROUTE_ACCESS))).toEqual([]);
    expect(Object.keys(ROUTE_ACCESS).filter((k) => !routes.has(k))).toEqual([]);
    // HEAD twins of GET routes are covered by the GET entry.
    const heads = walk.registered.filter((r) => r.url.startsWith('/api/v1') && r.method === 'HEAD');
    expect(heads.filter((h) => !routes.has(`GET ${h.url}`))).toEqual([]);
  });

  async function fixture(): Promise<Fixture> {
    const n = ++counter;
    const db = t.database.db;
    const insertUser = walk.insertUser;
    const [user, other, admin] = [await insertUser(`walker${n}`), await insertUser(`victim${n}`), await insertUser(`boss${n}`)];
    const [group] = await db
      .insert(groups)
      .values({ name: `walkgroup${n}` })
      .returning();
    if (!group) throw new Error('insert failed');
    await db.insert(groupMembers).values([
      { groupId: group.id, userId: other.id },
      { groupId: walk.adminGroupId, userId: admin.id },
    ]);
    return { n, user: user.username, userId: user.id, other: other.username, admin: admin.username, adminId: admin.id, group: group.name };
  }

  const sessionFor = (userId: number) => walk.sessionFor(userId);

  async function call(key: string, actor: Actor, checkWrites = false): Promise<{ res: LightMyRequestResponse; changed: boolean }> {
    const [method, pattern] = key.split(' ') as [HttpMethod, string];
    const f = await fixture();
    const actingAs = actor === 'admin' ? f.adminId : actor === 'anonymous' ? undefined : f.userId;
    const cookie = actingAs ? await sessionFor(actingAs) : undefined;
    const target = actor === 'self' ? f.user : f.other;
    const payload = method === 'GET' || method === 'DELETE' ? undefined : bodyFor(key, f, target);
    const before = checkWrites ? await snapshot(t.database) : '';
    const res = await t.request(method, urlFor(pattern, f, target), { cookie, payload });
    const changed = checkWrites && (await snapshot(t.database)) !== before;
    return { res, changed };
  }

  const entries = Object.entries(ROUTE_ACCESS as Record<string, RouteRule>);
  it.each(entries)('%s', async (key, rule) => {
    for (const actor of ACTORS) {
      const expected = EXPECTED[rule.access][actor];
      const { res, changed } = await call(key, actor, expected !== 'allowed');
      const where = `${key} as ${actor} (${rule.access}): ${res.statusCode} ${res.body.slice(0, 200)}`;
      if (expected === 'allowed') {
        expect([401, 403], where).not.toContain(res.statusCode);
        expect(res.statusCode, where).toBeLessThan(500);
      } else {
        expect(res.statusCode, where).toBe(expected);
        expect(res.json().code, where).toBe(expected === 401 ? 'auth.unauthenticated' : 'auth.forbidden');
        expect(changed, `${where}: a refused call wrote to the database`).toBe(false);
      }
    }
  });

  it('outside /api/v1 only the API documentation and the token-guarded /metrics are routes', async () => {
    // Not in the permission table: a new route here must be justified (and guarded) like /metrics.
    const outside = [
      ...new Set(walk.registered.filter((r) => !r.url.startsWith('/api/v1') && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`)),
    ];
    expect(outside.sort()).toEqual(OUTSIDE_API_ROUTES);
    const f = await fixture();
    for (const cookie of [undefined, await sessionFor(f.adminId)]) {
      const res = await t.request('GET', '/metrics', { cookie });
      expect(res.statusCode, 'a session is not a metrics credential').toBe(401);
      expect(res.json().code).toBe('auth.unauthenticated');
    }
  });

  it('HEAD twins of GET routes are guarded like the GET', async () => {
    const f = await fixture();
    const user = await sessionFor(f.userId);
    for (const [key, rule] of entries.filter(([k]) => k.startsWith('GET '))) {
      const url = urlFor(key.slice(4), f, f.other);
      const anon = await t.request('HEAD', url);
      const asUser = await t.request('HEAD', url, { cookie: user });
      const where = `HEAD ${url} (${rule.access}): anonymous ${anon.statusCode}, user ${asUser.statusCode}`;
      if (rule.access === 'public') expect([401, 403], where).not.toContain(anon.statusCode);
      else expect(anon.statusCode, where).toBe(401);
      if (rule.access === 'admin' || rule.access === 'self_or_admin') expect(asUser.statusCode, where).toBe(403);
      expect(anon.body, where).toBe('');
    }
  });

  it('the identity routes succeed for an allowed actor with the bodies above', async () => {
    // Guards the walk itself: if these bodies went stale, "not 401/403" could hide 400s.
    for (const [key, rule] of entries.filter(([k]) => IDENTITY_ROUTES.has(k))) {
      const actor: Actor = rule.access === 'admin' ? 'admin' : 'self';
      const { res } = await call(key, actor);
      expect(res.statusCode, `${key} as ${actor}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
    }
  });

  it('with manual config disabled, no route gives a non-admin a config or what renders one', async () => {
    // Spec §6. Walks every registered route (not a list of today's routes) as a non-admin who
    // owns a device in a location; path parameters name that user, device and location.
    const admin = await sessionFor((await fixture()).adminId);
    const location = await createLocation(t.app, admin, { address: ['10.77.0.1/24'], allowed_ips: ['10.77.0.0/24'] });
    const lock = await t.request('PATCH', '/api/v1/settings_enterprise', { cookie: admin, payload: { disable_manual_config: true } });
    expect(lock.statusCode, lock.body).toBe(200);
    // A rendered config, or the location's key it is rendered from (endpoint and addresses alone build no tunnel).
    const secrets = ['[Interface]', '[Peer]', location.pubkey, '"config":"'];
    const statuses = new Map<string, number>();
    for (const key of apiRoutes()) {
      const [method, pattern] = key.split(' ') as [HttpMethod, string];
      const f = await fixture();
      const made = await t.request('POST', `/api/v1/device/${f.user}`, {
        cookie: admin,
        payload: { name: 'owned', wireguard_pubkey: newKey() },
      });
      const deviceId = String(made.json().device.id);
      const url = pattern.replace(/:(\w+)/g, (_m, param: string) => {
        if (param === 'username') return f.user;
        if (param === 'name' || param === 'group') return f.group;
        if (param === 'device_id' || (param === 'id' && pattern.startsWith('/api/v1/device/'))) return deviceId;
        return String(location.id);
      });
      // Valid device bodies here only: in the walk above a created device would own id 1.
      const deviceBody = key === 'POST /api/v1/device/:username' || key === 'PUT /api/v1/device/:id';
      const payload =
        method === 'GET' || method === 'DELETE'
          ? undefined
          : deviceBody
            ? { name: `walkdevice${f.n}`, wireguard_pubkey: newKey() }
            : bodyFor(key, f, f.user);
      const res = await t.request(method, url, { cookie: await sessionFor(f.userId), payload });
      statuses.set(key, res.statusCode);
      const leaked = secrets.filter((secret) => res.body.includes(secret));
      expect(leaked, `${key} as the device owner: ${res.statusCode} ${res.body.slice(0, 300)}`).toEqual([]);
    }
    // Guards the walk: the routes that hand out configs were really reached with valid input.
    expect(statuses.get('POST /api/v1/device/:username')).toBe(201);
    expect(statuses.get('GET /api/v1/device/:id')).toBe(200);
    expect(statuses.get('GET /api/v1/network/:network_id/device/:device_id/config')).toBe(403);
  });
});
