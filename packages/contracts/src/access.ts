/**
 * The permission table: every `/api/v1` route and who may call it. The API refuses to start when
 * a registered route has no entry here, and the route-walking test checks each entry's behaviour
 * for an anonymous caller, a user, another user and an admin.
 *
 * - `public`: anyone, no session needed.
 * - `user`: any signed-in, active user.
 * - `self_or_admin`: a signed-in user acting on themselves (route param `username`), or an admin.
 * - `admin`: members of a group with the admin flag.
 */
export type Access = 'public' | 'user' | 'self_or_admin' | 'admin';

export interface RouteRule {
  access: Access;
  /** Permission name `resource.action` (STYLE.md), used in docs and logs. */
  permission: string;
}

const rule = (access: Access, permission: string): RouteRule => ({ access, permission });

export const ROUTE_ACCESS = {
  'GET /api/v1/health': rule('public', 'health.read'),
  'GET /api/v1/openapi.json': rule('public', 'openapi.read'),
  'GET /api/v1/info': rule('user', 'info.read'),
  'GET /api/v1/settings_essentials': rule('public', 'settings.read_essentials'),
  'GET /api/v1/settings': rule('admin', 'settings.read'),
  'PUT /api/v1/settings': rule('admin', 'settings.update'),
  'PATCH /api/v1/settings': rule('admin', 'settings.update'),

  'POST /api/v1/auth': rule('public', 'auth.login'),
  'POST /api/v1/auth/logout': rule('public', 'auth.logout'),
  'GET /api/v1/me': rule('user', 'me.read'),

  'GET /api/v1/user': rule('admin', 'user.list'),
  'POST /api/v1/user': rule('admin', 'user.create'),
  'POST /api/v1/user/available': rule('admin', 'user.check_available'),
  'PUT /api/v1/user/change_password': rule('user', 'user.change_own_password'),
  'GET /api/v1/user/:username': rule('self_or_admin', 'user.read'),
  'PUT /api/v1/user/:username': rule('self_or_admin', 'user.update'),
  'DELETE /api/v1/user/:username': rule('admin', 'user.delete'),
  'PUT /api/v1/user/:username/password': rule('admin', 'user.set_password'),

  'GET /api/v1/group-info': rule('admin', 'group.list_info'),
  'GET /api/v1/group': rule('admin', 'group.list'),
  'POST /api/v1/group': rule('admin', 'group.create'),
  'GET /api/v1/group/:name': rule('admin', 'group.read'),
  'PUT /api/v1/group/:name': rule('admin', 'group.update'),
  'DELETE /api/v1/group/:name': rule('admin', 'group.delete'),
  'POST /api/v1/groups-assign': rule('admin', 'group.assign'),
  'POST /api/v1/group/:group': rule('admin', 'group.add_member'),
  'DELETE /api/v1/group/:group/user/:username': rule('admin', 'group.remove_member'),
} as const satisfies Record<string, RouteRule>;

export type RouteKey = keyof typeof ROUTE_ACCESS;

export const routeKey = (method: string, url: string): string => `${method.toUpperCase()} ${url}`;

export function findRouteRule(method: string, url: string): RouteRule | undefined {
  return (ROUTE_ACCESS as Record<string, RouteRule>)[routeKey(method, url)];
}
